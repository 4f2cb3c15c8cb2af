# Catching SIGXCPU buys at most the one second to the hard CPU limit.
# expect-status: timeout
# expect-exit: 124
# policy-cpu: 1s
# policy-wall: 8s
import signal
signal.signal(signal.SIGXCPU, lambda *a: None)
while True:
    pass
