// Writes the API constant c0 as the colour (render-state cases).
ps_2_0
mov oC0, c0
