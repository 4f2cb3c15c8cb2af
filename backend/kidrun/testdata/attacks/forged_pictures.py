# A forged result frame with 64 PNGs of 16384 x 2048 pixels, about 4 KB
# each (one-bit grey, every row zero): each passes the per-picture checks,
# and together they are 2.1 gigapixels, 8 GiB as RGBA in the window. The
# host keeps pictures within one pixel budget per run and says so.
import base64, json, os, struct, zlib

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

w, h = 16384, 2048
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(bytes(h * (1 + w // 8)), 9)) + chunk(b"IEND", b""))
data = base64.b64encode(png).decode()
print("PNG BYTES", len(png), flush=True)
frame = json.dumps({"type": "result", "error": None, "drawing": None, "notices": ["forged frame arrived"],
                    "images": [{"mime": "image/png", "data": data}] * 64}).encode()
for name in os.listdir("/proc/self/fd"):
    if int(name) > 2:
        try:
            os.write(int(name), struct.pack(">I", len(frame)) + frame)
        except OSError:
            pass
os._exit(0)
