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
	XORQ SI, SI // the strip's first column

	// Strips of 8 columns: y[SI:SI+8] held in X1–X4 over every row.
strip8:
	MOVQ R12, DI
	SUBQ SI, DI
	CMPQ DI, $8
	JL   strip4
	LEAQ (R9)(SI*8), BX
	MOVUPD (BX), X1
	MOVUPD 16(BX), X2
	MOVUPD 32(BX), X3
	MOVUPD 48(BX), X4
	LEAQ (R8)(SI*8), AX
	MOVQ R10, DX
	MOVQ R11, CX

rows8:
	MOVSD  (DX), X6
	SHUFPD $0, X6, X6
	MOVUPD (AX), X0
	MOVUPD 16(AX), X5
	MOVUPD 32(AX), X7
	MOVUPD 48(AX), X8
	MULPD  X6, X0
	MULPD  X6, X5
	MULPD  X6, X7
	MULPD  X6, X8
	ADDPD  X0, X1
	ADDPD  X5, X2
	ADDPD  X7, X3
	ADDPD  X8, X4
	ADDQ   $8, DX
	ADDQ   R13, AX
	DECQ   CX
	JNZ    rows8
	MOVUPD X1, (BX)
	MOVUPD X2, 16(BX)
	MOVUPD X3, 32(BX)
	MOVUPD X4, 48(BX)
	ADDQ   $8, SI
	JMP    strip8

	// One strip of 4 columns (4 ≤ d − SI < 8).
strip4:
	CMPQ DI, $4
	JL   tail
	LEAQ (R9)(SI*8), BX
	MOVUPD (BX), X1
	MOVUPD 16(BX), X2
	LEAQ (R8)(SI*8), AX
	MOVQ R10, DX
	MOVQ R11, CX

rows4:
	MOVSD  (DX), X6
	SHUFPD $0, X6, X6
	MOVUPD (AX), X0
	MOVUPD 16(AX), X5
	MULPD  X6, X0
	MULPD  X6, X5
	ADDPD  X0, X1
	ADDPD  X5, X2
	ADDQ   $8, DX
	ADDQ   R13, AX
	DECQ   CX
	JNZ    rows4
	MOVUPD X1, (BX)
	MOVUPD X2, 16(BX)
	ADDQ   $4, SI
	SUBQ   $4, DI

	// The last d − SI < 4 columns one by one, as the scalar tail of axpy
	// (the product first: x·c + y), each in X1–X3 over every row.
tail:
	TESTQ DI, DI
	JLE   done
	LEAQ  (R9)(SI*8), BX
	MOVSD (BX), X1
	CMPQ  DI, $2
	JL    tailrows
	MOVSD 8(BX), X2
	CMPQ  DI, $3
	JL    tailrows
	MOVSD 16(BX), X3

tailrows:
	LEAQ (R8)(SI*8), AX
	MOVQ R10, DX
	MOVQ R11, CX

rowsT:
	MOVSD (DX), X6
	MOVSD (AX), X0
	MULSD X6, X0
	ADDSD X1, X0
	MOVSD X0, X1
	CMPQ  DI, $2
	JL    nextT
	MOVSD 8(AX), X5
	MULSD X6, X5
	ADDSD X2, X5
	MOVSD X5, X2
	CMPQ  DI, $3
	JL    nextT
	MOVSD 16(AX), X7
	MULSD X6, X7
	ADDSD X3, X7
	MOVSD X7, X3

nextT:
	ADDQ $8, DX
	ADDQ R13, AX
	DECQ CX
	JNZ  rowsT
	MOVSD X1, (BX)
	CMPQ  DI, $2
	JL    done
	MOVSD X2, 8(BX)
	CMPQ  DI, $3
	JL    done
	MOVSD X3, 16(BX)

done:
	RET
