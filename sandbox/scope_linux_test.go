package sandbox

import "testing"

func TestOutsideUserManager(t *testing.T) {
	for _, c := range []struct {
		name, self string
		want       bool
	}{
		{"login session", "0::/user.slice/user-1000.slice/session-c1.scope\n", true},
		{"ssh session", "0::/user.slice/user-1000.slice/session-42.scope\n", true},
		{"a system service", "0::/system.slice/cron.service\n", true},
		{"GNOME app", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-kidcoder-4242.scope\n", false},
		{"user unit", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/kc.service\n", false},
		{"the manager itself", "0::/user.slice/user-1000.slice/user@1000.service\n", false},
		{"another user's manager", "0::/user.slice/user-1001.slice/user@1001.service/app.slice/x.scope\n", true},
		{"a longer uid", "0::/user.slice/user-10001.slice/user@10001.service/app.slice/x.scope\n", true},
		{"hybrid", "12:memory:/user.slice\n0::/user.slice/user-1000.slice/session-3.scope\n", false},
		{"v1", "4:pids:/user.slice/user-1000.slice/session-3.scope\n3:memory:/user.slice\n", false},
	} {
		if got := outsideUserManager(c.self, 1000); got != c.want {
			t.Errorf("%s: outsideUserManager = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOwnScopeOnlyOnce(t *testing.T) {
	t.Setenv(ownScopeEnv, "1")
	if argv, ok := ownScopeArgv(); ok {
		t.Fatalf("a process placed once asks again: %q", argv)
	}
}
