# A teacher's check: it runs after the child's program, in the sandbox.
# `child` holds the program's variables and functions, `output` what it
# printed, `drawing` what the turtle drew. A failed assert fails the check.
assert "square" in child, "no function called square"
assert callable(child["square"]), "square is not a function"
assert child.get("side") == 100, "side should be the number typed in"
assert len(segments()) >= 4, "the square needs 4 sides"
