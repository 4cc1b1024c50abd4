#include "textflag.h"

// func dotSq(w, a []float64) (wa, aa float64)
//
// X7 = (s0, s1), X8 = (s2, s3): ⟨w, a⟩; X9 = (q0, q1), X10 = (q2, q3): ‖a‖²;
// four entries per iteration, then the rest into the low lanes, then
// (s0 + s2) + (s1 + s3): gonum's DotUnitary, twice, in one pass.
TEXT ·dotSq(SB), NOSPLIT, $0-64
	MOVQ w_base+0(FP), R9
	MOVQ a_base+24(FP), R8
	MOVQ a_len+32(FP), DI
	XORPS X7, X7
	XORPS X8, X8
	XORPS X9, X9
	XORPS X10, X10
	XORQ SI, SI
	SUBQ $4, DI
	JL   tail

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
	MOVSD    X7, wa+48(FP)
	ADDPD    X10, X9
	MOVSD    X9, X0
	UNPCKHPD X9, X9
	ADDSD    X0, X9
	MOVSD    X9, aa+56(FP)
	RET

// func scaleDot(c float64, a, w []float64) float64
//
// a ← c·a, and ⟨w, a⟩ summed as dotSq sums ⟨w, a⟩.
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
