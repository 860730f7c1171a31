;; The byte filter behind `scanLine` (byte-filter.ts): the positions, in a window of bytes, of the
;; bytes of one set, found 16 at a time with WebAssembly SIMD. The set is given as two 16-byte
;; tables at [0, 32): a byte b is in it when low[b & 15] & high[b >> 4] is not zero, which
;; describes any set whose bytes have at most 8 distinct high nibbles exactly, and any other set
;; with some bytes too many (the caller checks each position against its own table anyway).
;;
;; Rebuild byte-filter-wasm.ts after an edit: npx tsx scripts/build-wasm.ts
(module
  (memory (export "memory") 1)

  ;; Writes the offsets (from $start, as u32) of the bytes of [$start, $start + $len) that are in
  ;; the set to $out, in order; returns how many there are.
  (func (export "candidates") (param $start i32) (param $len i32) (param $out i32) (result i32)
    (local $i i32) (local $end i32) (local $count i32) (local $bits i32)
    (local $v v128) (local $low v128) (local $high v128) (local $nibble v128)
    (local.set $low (v128.load (i32.const 0)))
    (local.set $high (v128.load (i32.const 16)))
    (local.set $nibble (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))
    (local.set $i (local.get $start))
    (local.set $end (i32.add (local.get $start) (local.get $len)))
    ;; Whole blocks of 16: a bit per byte in the set, then one offset per bit.
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load (local.get $i)))
        (local.set $bits
          (i8x16.bitmask
            (i8x16.ne
              (v128.and
                (i8x16.swizzle (local.get $low) (v128.and (local.get $v) (local.get $nibble)))
                (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))
              (v128.const i64x2 0 0))))
        (block $bits_done
          (loop $each
            (br_if $bits_done (i32.eqz (local.get $bits)))
            (i32.store
              (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
              (i32.add (i32.sub (local.get $i) (local.get $start)) (i32.ctz (local.get $bits))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $each)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    ;; The last bytes, one at a time.
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $v (v128.load8_splat (local.get $i)))
        (if (i32.and
              (i8x16.extract_lane_u 0 (i8x16.swizzle (local.get $low) (v128.and (local.get $v) (local.get $nibble))))
              (i8x16.extract_lane_u 0 (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4)))))
          (then
            (i32.store
              (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
              (i32.sub (local.get $i) (local.get $start)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (local.get $count)))
