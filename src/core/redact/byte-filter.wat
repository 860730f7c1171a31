;; The byte filter behind `scanLine` (byte-filter.ts): the positions, in a window of bytes, of the
;; bytes of one set, found 16 at a time with WebAssembly SIMD. A set is given as nibble tables:
;; a byte b is in the one at [t, t + 32) when low[b & 15] & high[b >> 4] is not zero (low at t,
;; high at t + 16), which describes any set whose bytes have at most 8 distinct high nibbles
;; exactly, and any other with some bytes too many (the caller checks each position anyway).
;; Five sets: the bytes wanted (at 0), those of them wanted only after a byte of the set at 64,
;; listed at 32, and those wanted only before a byte of the set at 128, listed at 96.
;;
;; Then a second look at each byte found, for the commonest secret anchors (`-`, `=`, `A`, `b`,
;; `B`) where the table at 256 marks them (1: the caller would only ask `anchorHit` of it): the
;; byte is left out when a byte `anchorHit` needs beside it is not there (`-` needs a `k` or `t`
;; before it, or an `x` four before; `=` a byte of the table at 512 before it, past spaces and
;; `\t`; `A` one of `KSBCI` after it; `b` or `B` `earer` after it, in any case). What it cannot
;; see (bytes outside the window) it does not judge: the byte is kept. The window starts at 1024
;; and must have a byte before it and a byte after it in memory (0 at the ends of a line).
;;
;; Rebuild byte-filter-wasm.ts after an edit: npx tsx scripts/build-wasm.ts
(module
  (memory (export "memory") 1)

;; Whether `anchorHit` may say yes of the byte $b at $p, a window of [$start, $end): 0 only
  ;; when a byte it needs beside $b is missing.
  (func $may_hit (param $p i32) (param $b i32) (param $start i32) (param $end i32) (result i32)
    (local $x i32) (local $j i32)
    ;; `-`: sk-, xox?-, glpat-
    (if (i32.eq (local.get $b) (i32.const 0x2d))
      (then
        (if (i32.lt_u (i32.sub (local.get $p) (local.get $start)) (i32.const 4)) (then (return (i32.const 1))))
        (local.set $x (i32.load8_u (i32.sub (local.get $p) (i32.const 1))))
        (if (i32.or (i32.eq (local.get $x) (i32.const 0x6b)) (i32.eq (local.get $x) (i32.const 0x74))) (then (return (i32.const 1))))
        (return (i32.eq (i32.load8_u (i32.sub (local.get $p) (i32.const 4))) (i32.const 0x78)))))
    ;; `A`: AKIA, ASIA, ABIA, ACCA, AIza (the byte after the window is the line's next one, or 0)
    (if (i32.eq (local.get $b) (i32.const 0x41))
      (then
        (local.set $x (i32.load8_u (i32.add (local.get $p) (i32.const 1))))
        (return
          (i32.or
            (i32.or (i32.eq (local.get $x) (i32.const 0x4b)) (i32.eq (local.get $x) (i32.const 0x53)))
            (i32.or
              (i32.or (i32.eq (local.get $x) (i32.const 0x42)) (i32.eq (local.get $x) (i32.const 0x43)))
              (i32.eq (local.get $x) (i32.const 0x49)))))))
    ;; `b`, `B`: bearer, in any case
    (if (i32.eq (i32.or (local.get $b) (i32.const 0x20)) (i32.const 0x62))
      (then
        (if (i32.ge_u (i32.add (local.get $p) (i32.const 5)) (local.get $end)) (then (return (i32.const 1))))
        (return
          (i32.and
            (i32.and
              (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (i32.const 0x65))
              (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (i32.const 2))) (i32.const 0x20)) (i32.const 0x61)))
            (i32.and
              (i32.and
                (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (i32.const 3))) (i32.const 0x20)) (i32.const 0x72))
                (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (i32.const 4))) (i32.const 0x20)) (i32.const 0x65)))
              (i32.eq (i32.or (i32.load8_u (i32.add (local.get $p) (i32.const 5))) (i32.const 0x20)) (i32.const 0x72)))))))
    ;; `=`: NAME_TOKEN =, back over spaces and `\t` to the name's last byte
    (if (i32.eq (local.get $b) (i32.const 0x3d))
      (then
        (local.set $j (i32.sub (local.get $p) (i32.const 1)))
        (block $found
          (loop $back
            (if (i32.lt_s (local.get $j) (local.get $start)) (then (return (i32.const 1))))
            (local.set $x (i32.load8_u (local.get $j)))
            (if (i32.eq (local.get $x) (i32.const 0x20))
              (then
                (local.set $j (i32.sub (local.get $j) (i32.const 1)))
                (br $back)))
            (br_if $found (i32.ne (local.get $x) (i32.const 0x74)))
            (if (i32.lt_s (i32.sub (local.get $j) (i32.const 1)) (local.get $start)) (then (return (i32.const 1))))
            (br_if $found (i32.ne (i32.load8_u (i32.sub (local.get $j) (i32.const 1))) (i32.const 0x5c)))
            (local.set $j (i32.sub (local.get $j) (i32.const 2)))
            (br $back)))
        (return (i32.ne (i32.load8_u (i32.add (i32.const 512) (local.get $x))) (i32.const 0)))))
    (i32.const 1))

  ;; Writes the offsets (from $start, as u32) of the wanted bytes of [$start, $start + $len) to
  ;; $out, in order; returns how many there are. (One loop with the sets inline: calls per block
  ;; cost more than the work, and so does passing over a block early; only the second look is a
  ;; call, for the few bytes found.)
  (func (export "candidates") (param $start i32) (param $len i32) (param $out i32) (result i32)
    (local $i i32) (local $end i32) (local $count i32) (local $bits i32) (local $p i32) (local $b i32)
    (local $v v128) (local $prev v128) (local $next v128) (local $nibble v128) (local $zero v128)
    (local $set_low v128) (local $set_high v128)
    (local $after_low v128) (local $after_high v128) (local $previous_low v128) (local $previous_high v128)
    (local $before_low v128) (local $before_high v128) (local $next_low v128) (local $next_high v128)
    (local.set $set_low (v128.load (i32.const 0)))
    (local.set $set_high (v128.load (i32.const 16)))
    (local.set $after_low (v128.load (i32.const 32)))
    (local.set $after_high (v128.load (i32.const 48)))
    (local.set $previous_low (v128.load (i32.const 64)))
    (local.set $previous_high (v128.load (i32.const 80)))
    (local.set $before_low (v128.load (i32.const 96)))
    (local.set $before_high (v128.load (i32.const 112)))
    (local.set $next_low (v128.load (i32.const 128)))
    (local.set $next_high (v128.load (i32.const 144)))
    (local.set $nibble (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))
    (local.set $zero (v128.const i64x2 0 0))
    (local.set $i (local.get $start))
    (local.set $end (i32.add (local.get $start) (local.get $len)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $v (v128.load (local.get $i)))
        (local.set $prev (v128.load (i32.sub (local.get $i) (i32.const 1))))
        (local.set $next (v128.load (i32.add (local.get $i) (i32.const 1))))
        ;; in the set, but not (wanted only after one of "previous" and not after one),
        ;; and not (wanted only before one of "next" and not before one)
        (local.set $bits
          (i8x16.bitmask
            (v128.andnot
              (v128.andnot
                (i8x16.ne
                  (v128.and
                    (i8x16.swizzle (local.get $set_low) (v128.and (local.get $v) (local.get $nibble)))
                    (i8x16.swizzle (local.get $set_high) (i8x16.shr_u (local.get $v) (i32.const 4))))
                  (local.get $zero))
                (v128.andnot
                  (i8x16.ne
                    (v128.and
                      (i8x16.swizzle (local.get $after_low) (v128.and (local.get $v) (local.get $nibble)))
                      (i8x16.swizzle (local.get $after_high) (i8x16.shr_u (local.get $v) (i32.const 4))))
                    (local.get $zero))
                  (i8x16.ne
                    (v128.and
                      (i8x16.swizzle (local.get $previous_low) (v128.and (local.get $prev) (local.get $nibble)))
                      (i8x16.swizzle (local.get $previous_high) (i8x16.shr_u (local.get $prev) (i32.const 4))))
                    (local.get $zero))))
              (v128.andnot
                (i8x16.ne
                  (v128.and
                    (i8x16.swizzle (local.get $before_low) (v128.and (local.get $v) (local.get $nibble)))
                    (i8x16.swizzle (local.get $before_high) (i8x16.shr_u (local.get $v) (i32.const 4))))
                  (local.get $zero))
                (i8x16.ne
                  (v128.and
                    (i8x16.swizzle (local.get $next_low) (v128.and (local.get $next) (local.get $nibble)))
                    (i8x16.swizzle (local.get $next_high) (i8x16.shr_u (local.get $next) (i32.const 4))))
                  (local.get $zero))))))
        ;; A last block shorter than 16: only its own bytes count.
        (if (i32.lt_u (i32.sub (local.get $end) (local.get $i)) (i32.const 16))
          (then
            (local.set $bits
              (i32.and (local.get $bits) (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $i))) (i32.const 1))))))
        (block $bits_done
          (loop $each
            (br_if $bits_done (i32.eqz (local.get $bits)))
            (local.set $p (i32.add (local.get $i) (i32.ctz (local.get $bits))))
            (local.set $b (i32.load8_u (local.get $p)))
            (if (i32.or
                  (i32.eqz (i32.load8_u (i32.add (i32.const 256) (local.get $b))))
                  (call $may_hit (local.get $p) (local.get $b) (local.get $start) (local.get $end)))
              (then
                (i32.store
                  (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
                  (i32.sub (local.get $p) (local.get $start)))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $each)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    (local.get $count)))
