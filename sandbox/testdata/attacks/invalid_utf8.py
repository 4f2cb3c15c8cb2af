# Invalid UTF-8 and control bytes pass through as bytes without harm.
# expect-status: ok
import os
os.write(1, b"\xff\xfe\xc3(\x00\x1b[2J\xed\xa0\x80")
os.write(2, b"\x80\x81")
