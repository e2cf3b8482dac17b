"""A small battle of one's own, as the web editor makes one, for the custom scenario tests."""

SMALL_BATTLE = """
title = "A skirmish at the ford"
summary = "Two companies meet at a ford."
history = "Invented for the tests."
cols = 6
rows = 5
first = "blue"
turn_limit = 4
time_out = "draw"
options = ["hills_clear"]

[terrain]
forest = ["2,2"]
waterway = ["0,2", "1,2"]
ford = ["3,2"]

[sides.blue]
label = "Blues"
home = "south"
command_ap = [2, 3]
vp_target = 2
units = [{id = "B1", kind = "regular", at = "2,4"}, {id = "B2", kind = "artillery", at = "3,4"}]
leaders = [{name = "Ames", at = "2,4", rating = [2, 1]}]

[sides.red]
label = "Reds"
home = "north"
command_ap = 2
vp_target = 2
vp_counters = ["3,0"]
units = [{id = "R1", kind = "light", at = "2,0"}]
leaders = [{name = "Reyes", at = "2,0"}]

[[sides.red.reinforcements]]
turn = 2
entry = ["4,0"]
units = [{id = "R2", kind = "militia", at = "4,0"}]
"""
