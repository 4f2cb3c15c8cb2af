package main

import (
	"io"
	"log"
	"os"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// withoutWindowManager says whether the window opens on an X display that no
// window manager runs on (a kiosk, a bare X session, Xvfb). Any doubt (no X
// display, Wayland, an X error) answers false: the window is then left to a
// window manager, as everywhere else.
func withoutWindowManager() bool {
	if os.Getenv("DISPLAY") == "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return false
	}
	xgb.Logger = log.New(io.Discard, "", 0)
	c, err := xgb.NewConn()
	if err != nil {
		return false
	}
	defer c.Close()
	// An EWMH window manager names its check window on the root window
	// (_NET_SUPPORTING_WM_CHECK); openbox, xfwm4, mutter and KWin all do.
	const name = "_NET_SUPPORTING_WM_CHECK"
	atom, err := xproto.InternAtom(c, true, uint16(len(name)), name).Reply()
	if err != nil {
		return false
	}
	if atom.Atom == xproto.AtomNone {
		return true
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	p, err := xproto.GetProperty(c, false, root, atom.Atom, xproto.AtomWindow, 0, 1).Reply()
	return err == nil && p.ValueLen == 0
}

// webkitDefaults chooses WebKitGTK's renderer before the window exists:
// its DMA-BUF renderer (the default since 2.42) leaves windows blank on
// many drivers and virtual displays, and the window renders without GPU
// acceleration anyway (WebviewGpuPolicyNever). A choice made in the
// environment is kept.
func webkitDefaults() {
	if _, set := os.LookupEnv("WEBKIT_DISABLE_DMABUF_RENDERER"); !set {
		os.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
	}
}
