; A tiny LLVM module used as the bitcode of examples/sample.dxil.
; (Real DXIL is LLVM 3.7-era bitcode; this one is written by llvm-as 22 so
; that llvm-dis 22 can read what dxcopy dumps.)
target datalayout = "e-m:e-p:32:32-i1:32-i8:8-i16:16-i32:32-i64:64-f16:16-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-unknown-shadermodel6.0-pixel"

define float @main(float %x) {
entry:
  %y = fmul float %x, 2.000000e+00
  ret float %y
}
