#include "textflag.h"

// func normalsFast(r *Rand, x []float64) (n int, u uint64)
//
// normalsFastGeneric: the state s0..s3 in R8..R11, &zigK in R12, &zigW in
// R13, x in DI, its length in CX, the index in BX.
TEXT ·normalsFast(SB), NOSPLIT, $0-48
	MOVQ r+0(FP), AX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ x_base+8(FP), DI
	MOVQ x_len+16(FP), CX
	LEAQ ·zigK(SB), R12
	LEAQ ·zigW(SB), R13
	XORQ BX, BX
	CMPQ BX, CX
	JGE  done

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
	// i = u & 0xff, j = u >> 11; j < zigK[i] or the slow path
	MOVBQZX AL, DX
	MOVQ    AX, SI
	SHRQ    $11, SI
	CMPQ    SI, (R12)(DX*8)
	JAE     slow
	// x[k] = bits(float64(j)·zigW[i]) | (u & 0x100) << 55
	XORPS    X0, X0
	CVTSQ2SD SI, X0
	MULSD    (R13)(DX*8), X0
	MOVQ     X0, SI
	ANDQ     $0x100, AX
	SHLQ     $55, AX
	ORQ      AX, SI
	MOVQ     SI, (DI)(BX*8)
	INCQ     BX
	CMPQ     BX, CX
	JL       loop

done:
	XORQ AX, AX

slow:
	MOVQ r+0(FP), DX
	MOVQ R8, 0(DX)
	MOVQ R9, 8(DX)
	MOVQ R10, 16(DX)
	MOVQ R11, 24(DX)
	MOVQ BX, n+32(FP)
	MOVQ AX, u+40(FP)
	RET
