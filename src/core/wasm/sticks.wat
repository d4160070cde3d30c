;; The stick pass of sinew's solver in WebAssembly with 128-bit SIMD.
;;
;; Compiled by scripts/build-wasm.mjs (run by `npm run build`, before the tests,
;; the benches and Storybook) into sticksWasm.generated.ts; loaded by
;; stickKernel.ts, which lays the particle store's positions and inverse masses
;; and the stick table's columns out in the imported memory and passes their byte
;; offsets in. It does what solveRigidSticks / solveEqualSticks /
;; solveCompliantSticks in ../constraints/sticks.ts do, with the same IEEE operations in the same order
;; (WebAssembly never fuses a multiply into an add), so both paths give the same
;; positions bit for bit.
;;
;; Two consecutive sticks go through the two f64 lanes at once when they share no
;; particle: then doing them together is doing them one after the other. The
;; stick table is ordered in runs of sticks that share no particle (coloring.ts),
;; so that holds everywhere except where runs meet. Why pairs of sticks and not
;; the x and y of one stick: the square root and the division, the slow part of a
;; stick, are then done for two sticks by one instruction (measured: 15-20% faster
;; on the cloth benchmark than lanes over one stick's coordinates).
;;
;; Particles are xyz-interleaved f64 (24 bytes each), so a lane pair is gathered
;; from two particles: one 16-byte load of x and y per particle, shuffled into an
;; x pair and a y pair, and two 8-byte lane loads for z.
(module
  (import "env" "memory" (memory 0))

  ;; solve(from, to, soft, pos, w, a, b, rest, stiffness, compliance, lambda, params):
  ;; one Gauss-Seidel pass over sticks [from, to), all of kind 'equal' with the
  ;; exact square root. soft = 0: every stiffness is 1 and every compliance 0
  ;; (solveRigidSticks); soft = 1: the error is scaled by the stick's stiffness
  ;; (solveEqualSticks); soft = 2: XPBD with each stick's compliance alpha, as
  ;; solveCompliantSticks: with at = alpha / h^2 (1 / h^2 is the f64 at params)
  ;; and mu the stick's multiplier (lambda column),
  ;; f = ((d - rest) * stiffness - at * mu) / (d * (wa + wb + at)), mu += f * d.
  ;; pos, w, a, b, rest, stiffness, compliance, lambda and params are byte offsets. Returns the first stick it did not
  ;; do because its ends coincide (|d| < 1e-9) or both are immovable (|d|·Σw not
  ;; > 0, NaN included): the caller does that one the general way (it needs the
  ;; seeded jitter) and calls again from the next. Returns `to` when done.
  (func (export "solve")
    (param $s i32) (param $to i32) (param $soft i32)
    (param $pos i32) (param $w i32) (param $sa i32) (param $sb i32) (param $rest i32) (param $stiff i32)
    (param $comp i32) (param $lam i32) (param $params i32)
    (result i32)
    (local $at v128) (local $mu v128)
    (local $ia0 i32) (local $ib0 i32) (local $ia1 i32) (local $ib1 i32)
    (local $a0 i32) (local $b0 i32) (local $a1 i32) (local $b1 i32)
    (local $pa0 v128) (local $pa1 v128) (local $pb0 v128) (local $pb1 v128)
    (local $xa v128) (local $ya v128) (local $za v128) (local $xb v128) (local $yb v128) (local $zb v128)
    (local $dx v128) (local $dy v128) (local $dz v128) (local $wa v128) (local $wb v128)
    (local $d v128) (local $den v128) (local $e v128) (local $fa v128) (local $fb v128)
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $s) (local.get $to)))
        (block $single
          ;; Sticks s and s+1 as a pair, when there are two and they share no particle.
          (br_if $single (i32.ge_s (i32.add (local.get $s) (i32.const 1)) (local.get $to)))
          (local.set $ia0 (i32.load (i32.add (local.get $sa) (i32.shl (local.get $s) (i32.const 2)))))
          (local.set $ia1 (i32.load offset=4 (i32.add (local.get $sa) (i32.shl (local.get $s) (i32.const 2)))))
          (local.set $ib0 (i32.load (i32.add (local.get $sb) (i32.shl (local.get $s) (i32.const 2)))))
          (local.set $ib1 (i32.load offset=4 (i32.add (local.get $sb) (i32.shl (local.get $s) (i32.const 2)))))
          (br_if $single
            (i32.or
              (i32.or (i32.eq (local.get $ia0) (local.get $ia1)) (i32.eq (local.get $ia0) (local.get $ib1)))
              (i32.or (i32.eq (local.get $ib0) (local.get $ia1)) (i32.eq (local.get $ib0) (local.get $ib1)))))
          (local.set $a0 (i32.add (local.get $pos) (i32.mul (local.get $ia0) (i32.const 24))))
          (local.set $a1 (i32.add (local.get $pos) (i32.mul (local.get $ia1) (i32.const 24))))
          (local.set $b0 (i32.add (local.get $pos) (i32.mul (local.get $ib0) (i32.const 24))))
          (local.set $b1 (i32.add (local.get $pos) (i32.mul (local.get $ib1) (i32.const 24))))
          ;; Gather: lane 0 is stick s, lane 1 stick s+1.
          (local.set $pa0 (v128.load (local.get $a0)))
          (local.set $pa1 (v128.load (local.get $a1)))
          (local.set $pb0 (v128.load (local.get $b0)))
          (local.set $pb1 (v128.load (local.get $b1)))
          (local.set $xa (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $pa0) (local.get $pa1)))
          (local.set $ya (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $pa0) (local.get $pa1)))
          (local.set $xb (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $pb0) (local.get $pb1)))
          (local.set $yb (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $pb0) (local.get $pb1)))
          (local.set $za (v128.load64_lane offset=16 1 (local.get $a1) (v128.load64_zero offset=16 (local.get $a0))))
          (local.set $zb (v128.load64_lane offset=16 1 (local.get $b1) (v128.load64_zero offset=16 (local.get $b0))))
          (local.set $wa
            (v128.load64_lane 1 (i32.add (local.get $w) (i32.shl (local.get $ia1) (i32.const 3)))
              (v128.load64_zero (i32.add (local.get $w) (i32.shl (local.get $ia0) (i32.const 3))))))
          (local.set $wb
            (v128.load64_lane 1 (i32.add (local.get $w) (i32.shl (local.get $ib1) (i32.const 3)))
              (v128.load64_zero (i32.add (local.get $w) (i32.shl (local.get $ib0) (i32.const 3))))))
          (local.set $dx (f64x2.sub (local.get $xb) (local.get $xa)))
          (local.set $dy (f64x2.sub (local.get $yb) (local.get $ya)))
          (local.set $dz (f64x2.sub (local.get $zb) (local.get $za)))
          (local.set $d
            (f64x2.sqrt
              (f64x2.add
                (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy)))
                (f64x2.mul (local.get $dz) (local.get $dz)))))
          (local.set $den (f64x2.mul (local.get $d) (f64x2.add (local.get $wa) (local.get $wb))))
          ;; Either stick exceptional: nothing is written yet; do s alone below.
          (br_if $single
            (v128.any_true
              (v128.or
                (v128.not (f64x2.gt (local.get $den) (f64x2.splat (f64.const 0))))
                (f64x2.lt (local.get $d) (f64x2.splat (f64.const 1e-9))))))
          (local.set $e (f64x2.sub (local.get $d) (v128.load (i32.add (local.get $rest) (i32.shl (local.get $s) (i32.const 3))))))
          (if (local.get $soft)
            (then (local.set $e (f64x2.mul (local.get $e) (v128.load (i32.add (local.get $stiff) (i32.shl (local.get $s) (i32.const 3))))))))
          (if (i32.eq (local.get $soft) (i32.const 2))
            (then
              (local.set $at
                (f64x2.mul (v128.load (i32.add (local.get $comp) (i32.shl (local.get $s) (i32.const 3)))) (v128.load64_splat (local.get $params))))
              (local.set $mu (v128.load (i32.add (local.get $lam) (i32.shl (local.get $s) (i32.const 3)))))
              (local.set $e
                (f64x2.div
                  (f64x2.sub (local.get $e) (f64x2.mul (local.get $at) (local.get $mu)))
                  (f64x2.mul (local.get $d) (f64x2.add (f64x2.add (local.get $wa) (local.get $wb)) (local.get $at)))))
              (v128.store (i32.add (local.get $lam) (i32.shl (local.get $s) (i32.const 3)))
                (f64x2.add (local.get $mu) (f64x2.mul (local.get $e) (local.get $d)))))
            (else (local.set $e (f64x2.div (local.get $e) (local.get $den)))))
          (local.set $fa (f64x2.mul (local.get $e) (local.get $wa)))
          (local.set $fb (f64x2.mul (local.get $e) (local.get $wb)))
          (local.set $xa (f64x2.add (local.get $xa) (f64x2.mul (local.get $dx) (local.get $fa))))
          (local.set $ya (f64x2.add (local.get $ya) (f64x2.mul (local.get $dy) (local.get $fa))))
          (local.set $za (f64x2.add (local.get $za) (f64x2.mul (local.get $dz) (local.get $fa))))
          (local.set $xb (f64x2.sub (local.get $xb) (f64x2.mul (local.get $dx) (local.get $fb))))
          (local.set $yb (f64x2.sub (local.get $yb) (f64x2.mul (local.get $dy) (local.get $fb))))
          (local.set $zb (f64x2.sub (local.get $zb) (f64x2.mul (local.get $dz) (local.get $fb))))
          ;; Scatter back.
          (v128.store (local.get $a0) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xa) (local.get $ya)))
          (v128.store (local.get $a1) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xa) (local.get $ya)))
          (v128.store (local.get $b0) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xb) (local.get $yb)))
          (v128.store (local.get $b1) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xb) (local.get $yb)))
          (v128.store64_lane offset=16 0 (local.get $a0) (local.get $za))
          (v128.store64_lane offset=16 1 (local.get $a1) (local.get $za))
          (v128.store64_lane offset=16 0 (local.get $b0) (local.get $zb))
          (v128.store64_lane offset=16 1 (local.get $b1) (local.get $zb))
          (local.set $s (i32.add (local.get $s) (i32.const 2)))
          (br $next))
        ;; Stick s alone: where runs meet, or before an exceptional stick.
        (if (call $one (local.get $s) (local.get $soft) (local.get $pos) (local.get $w) (local.get $sa) (local.get $sb) (local.get $rest) (local.get $stiff)
              (local.get $comp) (local.get $lam) (local.get $params))
          (then (return (local.get $s))))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $next)))
    (local.get $to))

  ;; One stick, scalar; returns 1 without writing when it is exceptional. Always
  ;; scales by stiffness: for a rigid stick that is a multiplication by 1, exact.
  ;; soft = 2: XPBD, as in solve.
  (func $one
    (param $s i32) (param $soft i32) (param $pos i32) (param $w i32) (param $sa i32) (param $sb i32) (param $rest i32) (param $stiff i32)
    (param $comp i32) (param $lam i32) (param $params i32)
    (result i32)
    (local $at f64) (local $mu f64)
    (local $ia i32) (local $ib i32) (local $a i32) (local $b i32)
    (local $wa f64) (local $wb f64) (local $dx f64) (local $dy f64) (local $dz f64)
    (local $d f64) (local $den f64) (local $e f64) (local $fa f64) (local $fb f64)
    (local.set $ia (i32.load (i32.add (local.get $sa) (i32.shl (local.get $s) (i32.const 2)))))
    (local.set $ib (i32.load (i32.add (local.get $sb) (i32.shl (local.get $s) (i32.const 2)))))
    (local.set $wa (f64.load (i32.add (local.get $w) (i32.shl (local.get $ia) (i32.const 3)))))
    (local.set $wb (f64.load (i32.add (local.get $w) (i32.shl (local.get $ib) (i32.const 3)))))
    (local.set $a (i32.add (local.get $pos) (i32.mul (local.get $ia) (i32.const 24))))
    (local.set $b (i32.add (local.get $pos) (i32.mul (local.get $ib) (i32.const 24))))
    (local.set $dx (f64.sub (f64.load (local.get $b)) (f64.load (local.get $a))))
    (local.set $dy (f64.sub (f64.load offset=8 (local.get $b)) (f64.load offset=8 (local.get $a))))
    (local.set $dz (f64.sub (f64.load offset=16 (local.get $b)) (f64.load offset=16 (local.get $a))))
    (local.set $d
      (f64.sqrt
        (f64.add
          (f64.add (f64.mul (local.get $dx) (local.get $dx)) (f64.mul (local.get $dy) (local.get $dy)))
          (f64.mul (local.get $dz) (local.get $dz)))))
    (local.set $den (f64.mul (local.get $d) (f64.add (local.get $wa) (local.get $wb))))
    (if (i32.or (i32.eqz (f64.gt (local.get $den) (f64.const 0))) (f64.lt (local.get $d) (f64.const 1e-9)))
      (then (return (i32.const 1))))
    (local.set $e
      (f64.mul
        (f64.sub (local.get $d) (f64.load (i32.add (local.get $rest) (i32.shl (local.get $s) (i32.const 3)))))
        (f64.load (i32.add (local.get $stiff) (i32.shl (local.get $s) (i32.const 3))))))
    (if (i32.eq (local.get $soft) (i32.const 2))
      (then
        (local.set $at (f64.mul (f64.load (i32.add (local.get $comp) (i32.shl (local.get $s) (i32.const 3)))) (f64.load (local.get $params))))
        (local.set $mu (f64.load (i32.add (local.get $lam) (i32.shl (local.get $s) (i32.const 3)))))
        (local.set $e
          (f64.div
            (f64.sub (local.get $e) (f64.mul (local.get $at) (local.get $mu)))
            (f64.mul (local.get $d) (f64.add (f64.add (local.get $wa) (local.get $wb)) (local.get $at)))))
        (f64.store (i32.add (local.get $lam) (i32.shl (local.get $s) (i32.const 3)))
          (f64.add (local.get $mu) (f64.mul (local.get $e) (local.get $d)))))
      (else (local.set $e (f64.div (local.get $e) (local.get $den)))))
    (local.set $fa (f64.mul (local.get $e) (local.get $wa)))
    (local.set $fb (f64.mul (local.get $e) (local.get $wb)))
    (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $dx) (local.get $fa))))
    (f64.store offset=8 (local.get $a) (f64.add (f64.load offset=8 (local.get $a)) (f64.mul (local.get $dy) (local.get $fa))))
    (f64.store offset=16 (local.get $a) (f64.add (f64.load offset=16 (local.get $a)) (f64.mul (local.get $dz) (local.get $fa))))
    (f64.store (local.get $b) (f64.sub (f64.load (local.get $b)) (f64.mul (local.get $dx) (local.get $fb))))
    (f64.store offset=8 (local.get $b) (f64.sub (f64.load offset=8 (local.get $b)) (f64.mul (local.get $dy) (local.get $fb))))
    (f64.store offset=16 (local.get $b) (f64.sub (f64.load offset=16 (local.get $b)) (f64.mul (local.get $dz) (local.get $fb))))
    (i32.const 0))
)
