#include "textflag.h"

// func normalsFast(r *Rand, x []float64) (n int, u uint64)
//
// normalsFastGeneric: the state s0..s3 in R8..R11, &zigKS in R12, &zigWS
// in R13, the end of x in DI, the index in BX counting up from −len(x) to
// 0, len(x) in CX. Per draw: the xoshiro256++ step, the layer-and-sign
// index s = u & 0x1ff, the test j < zigKS[s], and x = float64(j)·zigWS[s].
TEXT ·normalsFast(SB), NOSPLIT, $0-48
	MOVQ r+0(FP), AX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ x_base+8(FP), DI
	MOVQ x_len+16(FP), CX
	LEAQ ·zigKS(SB), R12
	LEAQ ·zigWS(SB), R13
	LEAQ (DI)(CX*8), DI
	MOVQ CX, BX
	NEGQ BX
	JEQ  done

loop:
	// u = rotl(s0 + s3, 23) + s0
	LEAQ (R8)(R11*1), AX
	ROLQ $23, AX
	ADDQ R8, AX
	// t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
	MOVQ R9, DX
	SHLQ $17, DX
	XORQ R8, R10
	XORQ R9, R11
	XORQ R10, R9
	XORQ R11, R8
	XORQ DX, R10
	ROLQ $45, R11
	// s = u & 0x1ff, j = u >> 11; j < zigKS[s] or the slow path
	MOVL AX, DX
	ANDL $0x1ff, DX
	MOVQ AX, SI
	SHRQ $11, SI
	CMPQ SI, (R12)(DX*8)
	JAE  slow
	// x[k] = float64(j)·zigWS[s]
	XORPS    X0, X0
	CVTSQ2SD SI, X0
	MULSD    (R13)(DX*8), X0
	MOVSD    X0, (DI)(BX*8)
	INCQ     BX
	JNZ      loop

done:
	XORQ AX, AX

slow:
	// n = BX + len(x): the index of the draw that stopped (len(x) when none)
	ADDQ CX, BX
	MOVQ r+0(FP), DX
	MOVQ R8, 0(DX)
	MOVQ R9, 8(DX)
	MOVQ R10, 16(DX)
	MOVQ R11, 24(DX)
	MOVQ BX, n+32(FP)
	MOVQ AX, u+40(FP)
	RET
