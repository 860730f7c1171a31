;; The string scan behind `stringTail` (string-scan.ts): from a character boundary inside a JSON
;; string literal, finds its closing quote and whether the text up to it is clean (valid escapes,
;; no control bytes, valid UTF-8), 16 bytes at a time with WebAssembly SIMD: a block of plain
;; printable ASCII (no quote, no backslash) is skipped whole, and each other character of a block
;; is looked up in a table of byte classes. Memory: the class table at 0, the escape table at 256,
;; the window at 512. The 16 bytes after the window's limit must be the line's next bytes, or 0
;; past the line's end (a 0 is neither a continuation byte, nor an escape, nor a hex digit).
;;
;; Rebuild string-scan-wasm.ts after an edit: npx tsx scripts/build-wasm.ts
(module
  (memory (export "memory") 2)

  ;; The class of each byte starting a character: 0 plain, 1 quote, 2 backslash, 3 control,
  ;; 4 lead of 2 bytes, 5 lead of 3 (6 for E0, 7 for ED: narrower second bytes), 8 lead of 4
  ;; (9 for F0, 10 for F4), 11 never valid first (a continuation byte, C0, C1, F5 to FF).
  (data (i32.const 0)
    "\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03\03"
    "\00\00\01\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b"
    "\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b"
    "\0b\0b\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04\04"
    "\06\05\05\05\05\05\05\05\05\05\05\05\05\07\05\05\09\08\08\08\0a\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b\0b")
  ;; Of each byte after a backslash: 1 a one-character escape, 2 `u`, 4 a hex digit.
  (data (i32.const 256)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\01\00\00\00\00\00\00\00\00\00\00\00\00\01\04\04\04\04\04\04\04\04\04\04\00\00\00\00\00\00"
    "\00\04\04\04\04\04\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00"
    "\00\04\05\04\04\04\05\00\00\00\00\00\00\00\01\00\00\00\01\00\01\02\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")

  ;; Scans characters from $i (an offset in the window) while they start before $limit. Returns
  ;; (at << 2) | (found << 1) | dirty: with found, `at` is the closing quote; without, the
  ;; character boundary it stopped at (at or past $limit: scan again from there, next window).
  (func (export "scan") (param $i i32) (param $limit i32) (result i32)
    (local $dirty i32) (local $mask i32) (local $base i32) (local $p i32) (local $c1 i32) (local $n i32) (local $len i32)
    (local $v v128)
    (local.set $i (i32.add (local.get $i) (i32.const 512)))
    (local.set $limit (i32.add (local.get $limit) (i32.const 512)))
    (block $out
      (loop $block
        (br_if $out (i32.ge_u (local.get $i) (local.get $limit)))
        (local.set $base (local.get $i))
        (local.set $v (v128.load (local.get $base)))
        ;; Bytes with the top bit set (non-ASCII), quotes, backslashes and control bytes.
        (local.set $mask
          (i8x16.bitmask
            (v128.or
              (v128.or (local.get $v) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22))))
              (v128.or
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))
                (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))))))
        ;; Each such byte of the block that starts a character, in order.
        (loop $each
          (if (i32.eqz (local.get $mask))
            (then
              (local.set $i (i32.add (local.get $base) (i32.const 16)))
              (br $block)))
          (local.set $p (i32.add (local.get $base) (i32.ctz (local.get $mask))))
          ;; Only plain bytes up to the limit: stop there (a character boundary), or where the
          ;; last character ended if that is past it.
          (if (i32.ge_u (local.get $p) (local.get $limit))
            (then
              (if (i32.lt_u (local.get $i) (local.get $limit))
                (then (local.set $i (local.get $limit))))
              (br $out)))
          (local.set $c1 (i32.load8_u offset=1 (local.get $p)))
          (local.set $len (i32.const 0))
          (block $measured
            (block $invalid
              (block $four
                (block $f4
                  (block $f0
                    (block $three
                      (block $ed
                        (block $e0
                          (block $two
                            (block $control
                              (block $backslash
                                (block $quote
                                  (block $plain
                                    (br_table $plain $quote $backslash $control $two $three $e0 $ed $four $f0 $f4 $invalid
                                      (i32.load8_u (i32.load8_u (local.get $p)))))
                                  (local.set $len (i32.const 1))
                                  (br $measured))
                                ;; quote: the end of the string
                                (return
                                  (i32.or (i32.or (i32.shl (i32.sub (local.get $p) (i32.const 512)) (i32.const 2)) (i32.const 2)) (local.get $dirty))))
                              ;; backslash: an escape of 2 bytes, or of 6 (\uXXXX)
                              (local.set $n (i32.load8_u offset=256 (local.get $c1)))
                              (if (i32.and (local.get $n) (i32.const 2))
                                (then
                                  (local.set $len (i32.const 6))
                                  (br_if $measured
                                    (i32.and
                                      (i32.and
                                        (i32.and (i32.load8_u offset=256 (i32.load8_u offset=2 (local.get $p))) (i32.load8_u offset=256 (i32.load8_u offset=3 (local.get $p))))
                                        (i32.and (i32.load8_u offset=256 (i32.load8_u offset=4 (local.get $p))) (i32.load8_u offset=256 (i32.load8_u offset=5 (local.get $p)))))
                                      (i32.const 4)))
                                  (local.set $dirty (i32.const 1))
                                  (br $measured)))
                              (local.set $len (i32.const 2))
                              (br_if $measured (i32.and (local.get $n) (i32.const 1)))
                              (local.set $dirty (i32.const 1))
                              (br $measured))
                            ;; control
                            (br $invalid))
                          ;; two
                          (br_if $invalid (i32.ne (i32.and (local.get $c1) (i32.const 0xc0)) (i32.const 0x80)))
                          (local.set $len (i32.const 2))
                          (br $measured))
                        ;; e0
                        (br_if $invalid (i32.lt_u (local.get $c1) (i32.const 0xa0)))
                        (br $three))
                      ;; ed
                      (br_if $invalid (i32.gt_u (local.get $c1) (i32.const 0x9f)))
                      (br $three))
                    ;; three
                    (br_if $invalid
                      (i32.ne
                        (i32.and (i32.or (i32.shl (local.get $c1) (i32.const 8)) (i32.load8_u offset=2 (local.get $p))) (i32.const 0xc0c0))
                        (i32.const 0x8080)))
                    (local.set $len (i32.const 3))
                    (br $measured))
                  ;; f0
                  (br_if $invalid (i32.lt_u (local.get $c1) (i32.const 0x90)))
                  (br $four))
                ;; f4
                (br_if $invalid (i32.gt_u (local.get $c1) (i32.const 0x8f)))
                (br $four))
              ;; four
              (br_if $invalid
                (i32.ne
                  (i32.and
                    (i32.or (i32.or (i32.shl (local.get $c1) (i32.const 16)) (i32.shl (i32.load8_u offset=2 (local.get $p)) (i32.const 8))) (i32.load8_u offset=3 (local.get $p)))
                    (i32.const 0xc0c0c0))
                  (i32.const 0x808080)))
              (local.set $len (i32.const 4))
              (br $measured))
            ;; invalid: a bad byte, one byte on
            (local.set $dirty (i32.const 1))
            (local.set $len (i32.const 1)))
          (local.set $i (i32.add (local.get $p) (local.get $len)))
          ;; Past this block: load the next one from there; else on to the block's next byte.
          (br_if $block (i32.ge_u (local.get $i) (i32.add (local.get $base) (i32.const 16))))
          (local.set $mask (i32.and (local.get $mask) (i32.shl (i32.const -1) (i32.sub (local.get $i) (local.get $base)))))
          (br $each))))
    (i32.or (i32.shl (i32.sub (local.get $i) (i32.const 512)) (i32.const 2)) (local.get $dirty))))
