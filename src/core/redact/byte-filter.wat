;; The byte filter behind `scanLine` (byte-filter.ts): the positions, in a window of bytes, of the
;; bytes of one set, found 16 at a time with WebAssembly SIMD. A set is given as nibble tables:
;; a byte b is in the one at [t, t + 32) when low[b & 15] & high[b >> 4] is not zero (low at t,
;; high at t + 16), which describes any set whose bytes have at most 8 distinct high nibbles
;; exactly, and any other with some bytes too many (the caller checks each position anyway).
;; Five sets: the bytes wanted (at 0), those of them wanted only after a byte of the set at 64,
;; listed at 32, and those wanted only before a byte of the set at 128, listed at 96. The window
;; must have a byte before it and a byte after it in memory (0 at the ends of a line).
;;
;; Rebuild byte-filter-wasm.ts after an edit: npx tsx scripts/build-wasm.ts
(module
  (memory (export "memory") 1)

  ;; Writes the offsets (from $start, as u32) of the wanted bytes of [$start, $start + $len) to
  ;; $out, in order; returns how many there are. (One function with everything inline: calls
  ;; in the loop cost more than the work.)
  (func (export "candidates") (param $start i32) (param $len i32) (param $out i32) (result i32)
    (local $i i32) (local $end i32) (local $count i32) (local $bits i32)
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
            (i32.store
              (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
              (i32.add (i32.sub (local.get $i) (local.get $start)) (i32.ctz (local.get $bits))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $each)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    (local.get $count)))
