//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	RET

// func dotsInt8AVX2(q, codes *int8, stride, n int, out *int32)
//
// For each of the n codes: sign-extend 16 bytes of the query and of the
// code to 16-bit lanes, multiply and add adjacent pairs to 32-bit lanes
// (VPMADDWD), accumulate; two accumulators per 32-byte block. Products are
// at most 127², so a pair sum fits 16 bits ×2 and the total fits int32 for
// any stride up to 2¹⁶ (the package's dimension limit).
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ codes+8(FP), DI
	MOVQ stride+16(FP), CX
	MOVQ n+24(FP), R8
	MOVQ out+32(FP), R9

row:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORQ  AX, AX

block:
	VPMOVSXBW (SI)(AX*1), Y2
	VPMOVSXBW 16(SI)(AX*1), Y3
	VPMOVSXBW (DI)(AX*1), Y4
	VPMOVSXBW 16(DI)(AX*1), Y5
	VPMADDWD  Y2, Y4, Y4
	VPMADDWD  Y3, Y5, Y5
	VPADDD    Y4, Y0, Y0
	VPADDD    Y5, Y1, Y1
	ADDQ      $32, AX
	CMPQ      AX, CX
	JB        block

	// Sum the 16 lanes of Y0 and Y1 into one int32.
	VPADDD       Y0, Y1, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X0, X1, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDD       X0, X1, X0
	VPSHUFD      $0xb1, X0, X1
	VPADDD       X0, X1, X0
	VMOVD        X0, (R9)

	ADDQ $4, R9
	ADDQ CX, DI
	DECQ R8
	JNZ  row

	VZEROUPPER
	RET

// func dotsInt8RowsAVX2(q, codes *int8, stride int, rows *int32, n int, out *int32)
//
// The dot products of the query with the n codes rows[0..n) of codes, as
// dotsInt8AVX2 computes them, each row's cache lines fetched four rows
// ahead (the rows are scattered, and a row's lines are only read once).
TEXT ·dotsInt8RowsAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), SI
	MOVQ codes+8(FP), DI
	MOVQ stride+16(FP), CX
	MOVQ rows+24(FP), R10
	MOVQ n+32(FP), R8
	MOVQ out+40(FP), R9
	XORQ R11, R11 // the row index i

row:
	// Prefetch row rows[i+4].
	LEAQ      4(R11), R12
	CMPQ      R12, R8
	JAE       compute
	MOVLQSX   (R10)(R12*4), R13
	IMULQ     CX, R13
	ADDQ      DI, R13
	XORQ      R14, R14

prefetch:
	PREFETCHT0 (R13)(R14*1)
	ADDQ       $64, R14
	CMPQ       R14, CX
	JB         prefetch

compute:
	MOVLQSX (R10)(R11*4), DX
	IMULQ   CX, DX
	ADDQ    DI, DX
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	XORQ    AX, AX

block:
	VPMOVSXBW (SI)(AX*1), Y2
	VPMOVSXBW 16(SI)(AX*1), Y3
	VPMOVSXBW (DX)(AX*1), Y4
	VPMOVSXBW 16(DX)(AX*1), Y5
	VPMADDWD  Y2, Y4, Y4
	VPMADDWD  Y3, Y5, Y5
	VPADDD    Y4, Y0, Y0
	VPADDD    Y5, Y1, Y1
	ADDQ      $32, AX
	CMPQ      AX, CX
	JB        block

	VPADDD       Y0, Y1, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X0, X1, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDD       X0, X1, X0
	VPSHUFD      $0xb1, X0, X1
	VPADDD       X0, X1, X0
	VMOVD        X0, (R9)(R11*4)

	INCQ R11
	CMPQ R11, R8
	JB   row

	VZEROUPPER
	RET
