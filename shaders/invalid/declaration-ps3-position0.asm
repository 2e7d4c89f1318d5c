// expect: pixel shader inputs cannot be position0
// ps_3_0 inputs cannot be position0 (Windows refuses wine's ps_code_bad).
ps_3_0
dcl_position0 v0
mov oC0, v0
