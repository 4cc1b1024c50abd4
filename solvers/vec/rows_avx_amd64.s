#include "textflag.h"

// The row kernels again in AVX (VEX-encoded, 256-bit), for the processors
// that have it (rows_amd64.go chooses): the same products and sums as
// the SSE2 kernels of dot_amd64.s, on the same lanes, in the same order —
// a 256-bit lane does what two 128-bit lanes did, and no multiply-add is
// fused — so the results are theirs bit for bit, with half the
// instructions a row.

// func dotRowsAVX(dst, w, xs []float64, stride int)
//
// dst[i] = ⟨w, row i⟩ summed as dotSqGeneric sums it: the accumulator Y
// holds s₀…s₃ (entries 4j + 0…3), the last len(w) mod 4 entries are
// added to s₀ after its high half (s₂, s₃) is taken out, then (s₀ + s₂)
// + (s₁ + s₃). Two rows at a time, each w chunk loaded once for both.
TEXT ·dotRowsAVX(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), R10
	MOVQ dst_len+8(FP), R11
	MOVQ w_base+24(FP), R9
	MOVQ w_len+32(FP), R12
	MOVQ xs_base+48(FP), R8
	MOVQ stride+72(FP), R13
	SHLQ $3, R13
	MOVQ R12, R14
	SHRQ $2, R14 // chunks of 4 entries
	ANDQ $3, R12 // the entries after them

pair:
	CMPQ   R11, $2
	JL     single
	VXORPD Y7, Y7, Y7
	VXORPD Y9, Y9, Y9
	MOVQ   R8, AX
	LEAQ   (R8)(R13*1), DX
	MOVQ   R9, BX
	MOVQ   R14, CX
	TESTQ  CX, CX
	JE     ptail

ploop:
	VMOVUPD (BX), Y1
	VMULPD  (AX), Y1, Y0
	VMULPD  (DX), Y1, Y2
	VADDPD  Y0, Y7, Y7
	VADDPD  Y2, Y9, Y9
	ADDQ    $32, AX
	ADDQ    $32, DX
	ADDQ    $32, BX
	DECQ    CX
	JNZ     ploop

ptail:
	VEXTRACTF128 $1, Y7, X8
	VEXTRACTF128 $1, Y9, X10
	MOVQ         R12, CX
	TESTQ        CX, CX
	JE           pend

pone:
	VMOVSD (BX), X1
	VMULSD (AX), X1, X0
	VMULSD (DX), X1, X2
	VADDSD X0, X7, X7
	VADDSD X2, X9, X9
	ADDQ   $8, AX
	ADDQ   $8, DX
	ADDQ   $8, BX
	DECQ   CX
	JNZ    pone

pend:
	VADDPD    X8, X7, X7
	VADDPD    X10, X9, X9
	VUNPCKHPD X7, X7, X0
	VADDSD    X0, X7, X0
	VMOVSD    X0, (R10)
	VUNPCKHPD X9, X9, X2
	VADDSD    X2, X9, X2
	VMOVSD    X2, 8(R10)
	ADDQ      $16, R10
	LEAQ      (R8)(R13*2), R8
	SUBQ      $2, R11
	JMP       pair

single:
	TESTQ  R11, R11
	JE     done
	VXORPD Y7, Y7, Y7
	MOVQ   R8, AX
	MOVQ   R9, BX
	MOVQ   R14, CX
	TESTQ  CX, CX
	JE     stail

sloop:
	VMOVUPD (BX), Y1
	VMULPD  (AX), Y1, Y0
	VADDPD  Y0, Y7, Y7
	ADDQ    $32, AX
	ADDQ    $32, BX
	DECQ    CX
	JNZ     sloop

stail:
	VEXTRACTF128 $1, Y7, X8
	MOVQ         R12, CX
	TESTQ        CX, CX
	JE           send

sone:
	VMOVSD (BX), X1
	VMULSD (AX), X1, X0
	VADDSD X0, X7, X7
	ADDQ   $8, AX
	ADDQ   $8, BX
	DECQ   CX
	JNZ    sone

send:
	VADDPD    X8, X7, X7
	VUNPCKHPD X7, X7, X0
	VADDSD    X0, X7, X0
	VMOVSD    X0, (R10)

done:
	VZEROUPPER
	RET

// func axpyRowsAVX(y, coef, xs []float64, stride int)
//
// y += coef[i]·(row i) for i = 0, 1, … in order, each entry y_j ←
// y_j + c·x_j as axpy adds it: strips of 16 columns held in Y1–Y4 over
// every row, then at most one strip of 8, of 4, of 2 (one 128-bit lane)
// and a last column.
TEXT ·axpyRowsAVX(SB), NOSPLIT, $0-80
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

strip16:
	MOVQ    R12, DI
	SUBQ    SI, DI
	CMPQ    DI, $16
	JL      strip8
	LEAQ    (R9)(SI*8), BX
	VMOVUPD (BX), Y1
	VMOVUPD 32(BX), Y2
	VMOVUPD 64(BX), Y3
	VMOVUPD 96(BX), Y4
	LEAQ    (R8)(SI*8), AX
	MOVQ    R10, DX
	MOVQ    R11, CX

rows16:
	VBROADCASTSD (DX), Y6
	VMULPD       (AX), Y6, Y0
	VMULPD       32(AX), Y6, Y5
	VMULPD       64(AX), Y6, Y7
	VMULPD       96(AX), Y6, Y8
	VADDPD       Y0, Y1, Y1
	VADDPD       Y5, Y2, Y2
	VADDPD       Y7, Y3, Y3
	VADDPD       Y8, Y4, Y4
	ADDQ         $8, DX
	ADDQ         R13, AX
	DECQ         CX
	JNZ          rows16
	VMOVUPD      Y1, (BX)
	VMOVUPD      Y2, 32(BX)
	VMOVUPD      Y3, 64(BX)
	VMOVUPD      Y4, 96(BX)
	ADDQ         $16, SI
	JMP          strip16

strip8:
	CMPQ    DI, $8
	JL      strip4
	LEAQ    (R9)(SI*8), BX
	VMOVUPD (BX), Y1
	VMOVUPD 32(BX), Y2
	LEAQ    (R8)(SI*8), AX
	MOVQ    R10, DX
	MOVQ    R11, CX

rows8:
	VBROADCASTSD (DX), Y6
	VMULPD       (AX), Y6, Y0
	VMULPD       32(AX), Y6, Y5
	VADDPD       Y0, Y1, Y1
	VADDPD       Y5, Y2, Y2
	ADDQ         $8, DX
	ADDQ         R13, AX
	DECQ         CX
	JNZ          rows8
	VMOVUPD      Y1, (BX)
	VMOVUPD      Y2, 32(BX)
	ADDQ         $8, SI
	SUBQ         $8, DI

strip4:
	CMPQ    DI, $4
	JL      strip2
	LEAQ    (R9)(SI*8), BX
	VMOVUPD (BX), Y1
	LEAQ    (R8)(SI*8), AX
	MOVQ    R10, DX
	MOVQ    R11, CX

rows4:
	VBROADCASTSD (DX), Y6
	VMULPD       (AX), Y6, Y0
	VADDPD       Y0, Y1, Y1
	ADDQ         $8, DX
	ADDQ         R13, AX
	DECQ         CX
	JNZ          rows4
	VMOVUPD      Y1, (BX)
	ADDQ         $4, SI
	SUBQ         $4, DI

strip2:
	CMPQ    DI, $2
	JL      strip1
	LEAQ    (R9)(SI*8), BX
	VMOVUPD (BX), X1
	LEAQ    (R8)(SI*8), AX
	MOVQ    R10, DX
	MOVQ    R11, CX

rows2:
	VMOVDDUP (DX), X6
	VMULPD   (AX), X6, X0
	VADDPD   X0, X1, X1
	ADDQ     $8, DX
	ADDQ     R13, AX
	DECQ     CX
	JNZ      rows2
	VMOVUPD  X1, (BX)
	ADDQ     $2, SI
	SUBQ     $2, DI

strip1:
	TESTQ  DI, DI
	JE     done
	LEAQ   (R9)(SI*8), BX
	VMOVSD (BX), X1
	LEAQ   (R8)(SI*8), AX
	MOVQ   R10, DX
	MOVQ   R11, CX

rows1:
	VMOVSD (DX), X6
	VMULSD (AX), X6, X0
	VADDSD X0, X1, X1
	ADDQ   $8, DX
	ADDQ   R13, AX
	DECQ   CX
	JNZ    rows1
	VMOVSD X1, (BX)

done:
	VZEROUPPER
	RET

// func dotSqRowsAVX(dst, sq, w, xs []float64, stride int)
//
// dst[i], sq[i] = ⟨w, row i⟩, ‖row i‖², each summed as dotRowsAVX sums
// (Y7 the products with w, Y9 the squares), one row at a time.
TEXT ·dotSqRowsAVX(SB), NOSPLIT, $0-104
	MOVQ dst_base+0(FP), R10
	MOVQ dst_len+8(FP), R11
	MOVQ sq_base+24(FP), DI
	MOVQ w_base+48(FP), R9
	MOVQ w_len+56(FP), R12
	MOVQ xs_base+72(FP), R8
	MOVQ stride+96(FP), R13
	SHLQ $3, R13
	MOVQ R12, R14
	SHRQ $2, R14
	ANDQ $3, R12
	TESTQ R11, R11
	JE   done

row:
	VXORPD Y7, Y7, Y7
	VXORPD Y9, Y9, Y9
	MOVQ   R8, AX
	MOVQ   R9, BX
	MOVQ   R14, CX
	TESTQ  CX, CX
	JE     tail

loop:
	VMOVUPD (AX), Y0
	VMULPD  (BX), Y0, Y1
	VMULPD  Y0, Y0, Y2
	VADDPD  Y1, Y7, Y7
	VADDPD  Y2, Y9, Y9
	ADDQ    $32, AX
	ADDQ    $32, BX
	DECQ    CX
	JNZ     loop

tail:
	VEXTRACTF128 $1, Y7, X8
	VEXTRACTF128 $1, Y9, X10
	MOVQ         R12, CX
	TESTQ        CX, CX
	JE           end

one:
	VMOVSD (AX), X0
	VMULSD (BX), X0, X1
	VMULSD X0, X0, X2
	VADDSD X1, X7, X7
	VADDSD X2, X9, X9
	ADDQ   $8, AX
	ADDQ   $8, BX
	DECQ   CX
	JNZ    one

end:
	VADDPD    X8, X7, X7
	VUNPCKHPD X7, X7, X0
	VADDSD    X0, X7, X0
	VMOVSD    X0, (R10)
	VADDPD    X10, X9, X9
	VUNPCKHPD X9, X9, X2
	VADDSD    X2, X9, X2
	VMOVSD    X2, (DI)
	ADDQ      $8, R10
	ADDQ      $8, DI
	ADDQ      R13, R8
	DECQ      R11
	JNZ       row

done:
	VZEROUPPER
	RET
