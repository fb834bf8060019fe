; big_r52_dual_mul20_ifma_intel -- r52_dual_mul20_ifma.asm (its header
; has the math, the prototype, the preconditions and the register map)
; in the intel tuning of r52_dual20.inc, for Intel's cores.

%define R52_TUNE_INTEL 1
%include "r52_dual_mul20_ifma.asm"
