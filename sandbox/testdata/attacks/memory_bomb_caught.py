# Catching MemoryError does not hide that memory ran out... but a program
# that recovers and exits 0 did finish fine: the host reports ok.
# expect-status: ok
# expect-stdout: RECOVERED
# policy-mem: 160M
# policy-wall: 15s
a = []
try:
    while True:
        a.append(bytearray(8 << 20))
except MemoryError:
    a = None
print("RECOVERED")
