# Only the /etc files the sandbox needs exist; no shadow, passwd, hosts,
# no /home, /root, /run, /var, /sys.
# expect-status: ok
# expect-stdout: BLOCKED
import os
seen = [p for p in ["/etc/shadow", "/etc/passwd", "/etc/hosts", "/etc/resolv.conf", "/etc/ssh",
                    "/home", "/root", "/run", "/var", "/sys", "/boot", "/mnt", "/media", "/srv", "/opt"]
        if os.path.exists(p)]
print("SEEN %s" % seen if seen else "BLOCKED")
