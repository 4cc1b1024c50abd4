#include "textflag.h"

// func scaleDot(c float64, a, w []float64) float64
//
// a ← c·a, and ⟨w, a⟩ summed as dotSqGeneric sums ⟨w, a⟩ (gonum's
// DotUnitary: two two-lane accumulators, then (s0 + s2) + (s1 + s3)).
TEXT ·scaleDot(SB), NOSPLIT, $0-64
	MOVSD  c+0(FP), X6
	SHUFPD $0, X6, X6
	MOVQ   a_base+8(FP), R8
	MOVQ   a_len+16(FP), DI
	MOVQ   w_base+32(FP), R9
	XORPS  X7, X7
	XORPS  X8, X8
	XORQ   SI, SI
	SUBQ   $4, DI
	JL     tail

loop:
	MOVUPD (R8)(SI*8), X0
	MOVUPD 16(R8)(SI*8), X2
	MULPD  X6, X0
	MULPD  X6, X2
	MOVUPD X0, (R8)(SI*8)
	MOVUPD X2, 16(R8)(SI*8)
	MOVUPD (R9)(SI*8), X1
	MOVUPD 16(R9)(SI*8), X3
	MULPD  X0, X1
	MULPD  X2, X3
	ADDPD  X1, X7
	ADDPD  X3, X8
	ADDQ   $4, SI
	SUBQ   $4, DI
	JGE    loop

tail:
	ADDQ $4, DI
	JLE  end

onemore:
	MOVSD (R8)(SI*8), X0
	MULSD X6, X0
	MOVSD X0, (R8)(SI*8)
	MOVSD (R9)(SI*8), X1
	MULSD X0, X1
	ADDSD X1, X7
	INCQ  SI
	DECQ  DI
	JNZ   onemore

end:
	ADDPD    X8, X7
	MOVSD    X7, X0
	UNPCKHPD X7, X7
	ADDSD    X0, X7
	MOVSD    X7, ret+56(FP)
	RET

// func axpy(c float64, x, y []float64)
//
// y ← y + c·x, four entries per iteration, then the rest.
TEXT ·axpy(SB), NOSPLIT, $0-56
	MOVSD  c+0(FP), X6
	SHUFPD $0, X6, X6
	MOVQ   x_base+8(FP), R8
	MOVQ   x_len+16(FP), DI
	MOVQ   y_base+32(FP), R9
	XORQ   SI, SI
	SUBQ   $4, DI
	JL     tail

loop:
	MOVUPD (R8)(SI*8), X0
	MOVUPD 16(R8)(SI*8), X2
	MULPD  X6, X0
	MULPD  X6, X2
	MOVUPD (R9)(SI*8), X1
	MOVUPD 16(R9)(SI*8), X3
	ADDPD  X0, X1
	ADDPD  X2, X3
	MOVUPD X1, (R9)(SI*8)
	MOVUPD X3, 16(R9)(SI*8)
	ADDQ   $4, SI
	SUBQ   $4, DI
	JGE    loop

tail:
	ADDQ $4, DI
	JLE  end

onemore:
	MOVSD (R8)(SI*8), X0
	MULSD X6, X0
	ADDSD (R9)(SI*8), X0
	MOVSD X0, (R9)(SI*8)
	INCQ  SI
	DECQ  DI
	JNZ   onemore

end:
	RET

// func dotRows(dst, w, xs []float64, stride int)
//
// dst[i] = ⟨w, xs[i·stride : i·stride + len(w)]⟩ for i < len(dst), each
// summed as dotSqGeneric sums ⟨w, a⟩.
TEXT ·dotRows(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), R10
	MOVQ dst_len+8(FP), R11
	MOVQ w_base+24(FP), R9
	MOVQ w_len+32(FP), R12
	MOVQ xs_base+48(FP), R8
	MOVQ stride+72(FP), R13
	SHLQ $3, R13
	TESTQ R11, R11
	JE   done

row:
	XORPS X7, X7
	XORPS X8, X8
	XORQ  SI, SI
	MOVQ  R12, DI
	SUBQ  $4, DI
	JL    tail

loop:
	MOVUPD (R8)(SI*8), X0
	MOVUPD 16(R8)(SI*8), X2
	MOVUPD (R9)(SI*8), X1
	MOVUPD 16(R9)(SI*8), X3
	MULPD  X0, X1
	MULPD  X2, X3
	ADDPD  X1, X7
	ADDPD  X3, X8
	ADDQ   $4, SI
	SUBQ   $4, DI
	JGE    loop

tail:
	ADDQ $4, DI
	JLE  end

onemore:
	MOVSD (R8)(SI*8), X0
	MOVSD (R9)(SI*8), X1
	MULSD X0, X1
	ADDSD X1, X7
	INCQ  SI
	DECQ  DI
	JNZ   onemore

end:
	ADDPD    X8, X7
	MOVSD    X7, X0
	UNPCKHPD X7, X7
	ADDSD    X0, X7
	MOVSD    X7, (R10)
	ADDQ     $8, R10
	ADDQ     R13, R8
	DECQ     R11
	JNZ      row

done:
	RET

// func dotSqRows(dst, sq, w, xs []float64, stride int)
//
// dst[i], sq[i] = dotSqGeneric(w, xs[i·stride : i·stride + len(w)]) for i < len(dst).
TEXT ·dotSqRows(SB), NOSPLIT, $0-104
	MOVQ dst_base+0(FP), R10
	MOVQ dst_len+8(FP), R11
	MOVQ sq_base+24(FP), BX
	MOVQ w_base+48(FP), R9
	MOVQ w_len+56(FP), R12
	MOVQ xs_base+72(FP), R8
	MOVQ stride+96(FP), R13
	SHLQ $3, R13
	TESTQ R11, R11
	JE   done

row:
	XORPS X7, X7
	XORPS X8, X8
	XORPS X9, X9
	XORPS X10, X10
	XORQ  SI, SI
	MOVQ  R12, DI
	SUBQ  $4, DI
	JL    tail

loop:
	MOVUPD (R8)(SI*8), X0
	MOVUPD 16(R8)(SI*8), X2
	MOVUPD (R9)(SI*8), X1
	MOVUPD 16(R9)(SI*8), X3
	MULPD  X0, X1
	MULPD  X2, X3
	ADDPD  X1, X7
	ADDPD  X3, X8
	MULPD  X0, X0
	MULPD  X2, X2
	ADDPD  X0, X9
	ADDPD  X2, X10
	ADDQ   $4, SI
	SUBQ   $4, DI
	JGE    loop

tail:
	ADDQ $4, DI
	JLE  end

onemore:
	MOVSD (R8)(SI*8), X0
	MOVSD (R9)(SI*8), X1
	MULSD X0, X1
	ADDSD X1, X7
	MULSD X0, X0
	ADDSD X0, X9
	INCQ  SI
	DECQ  DI
	JNZ   onemore

end:
	ADDPD    X8, X7
	MOVSD    X7, X0
	UNPCKHPD X7, X7
	ADDSD    X0, X7
	MOVSD    X7, (R10)
	ADDPD    X10, X9
	MOVSD    X9, X0
	UNPCKHPD X9, X9
	ADDSD    X0, X9
	MOVSD    X9, (BX)
	ADDQ     $8, R10
	ADDQ     $8, BX
	ADDQ     R13, R8
	DECQ     R11
	JNZ      row

done:
	RET

// func axpyRows(y, coef, xs []float64, stride int)
//
// y ← y + coef[i]·xs[i·stride : i·stride + len(y)] for i = 0, 1, … <
// len(coef), in that order, each as axpy adds it.
TEXT ·axpyRows(SB), NOSPLIT, $0-80
	MOVQ y_base+0(FP), R9
	MOVQ y_len+8(FP), R12
	MOVQ coef_base+24(FP), R10
	MOVQ coef_len+32(FP), R11
	MOVQ xs_base+48(FP), R8
	MOVQ stride+72(FP), R13
	SHLQ $3, R13
	TESTQ R11, R11
	JE   done

row:
	MOVSD  (R10), X6
	SHUFPD $0, X6, X6
	XORQ   SI, SI
	MOVQ   R12, DI
	SUBQ   $4, DI
	JL     tail

loop:
	MOVUPD (R8)(SI*8), X0
	MOVUPD 16(R8)(SI*8), X2
	MULPD  X6, X0
	MULPD  X6, X2
	MOVUPD (R9)(SI*8), X1
	MOVUPD 16(R9)(SI*8), X3
	ADDPD  X0, X1
	ADDPD  X2, X3
	MOVUPD X1, (R9)(SI*8)
	MOVUPD X3, 16(R9)(SI*8)
	ADDQ   $4, SI
	SUBQ   $4, DI
	JGE    loop

tail:
	ADDQ $4, DI
	JLE  end

onemore:
	MOVSD (R8)(SI*8), X0
	MULSD X6, X0
	ADDSD (R9)(SI*8), X0
	MOVSD X0, (R9)(SI*8)
	INCQ  SI
	DECQ  DI
	JNZ   onemore

end:
	ADDQ $8, R10
	ADDQ R13, R8
	DECQ R11
	JNZ  row

done:
	RET
