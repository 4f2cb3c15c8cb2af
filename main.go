// Command kidcoder-gui is the desktop classroom: a Wails window around the Svelte frontend.
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"kidcoder/app"
	"kidcoder/sandbox"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() { os.Exit(run()) }

func run() int {
	// Runs must be able to enter their control groups: see sandbox.EnterOwnScope.
	sandbox.EnterOwnScope()
	webkitDefaults()
	lessonsDir := flag.String("lessons", "", "lessons folder (default: $KIDCODER_LESSONS, then the one chosen in the app, then Documents/Kid Coder)")
	flag.Parse()
	a := app.New(os.Getenv("KIDCODER_SETTINGS"), "")
	var shell app.Shell
	loaded := make(chan struct{})
	var loadOnce sync.Once
	note := func(what string) {
		if l, ok := shell.(interface{ Note(string, any) }); ok {
			l.Note(what, nil)
		}
	}
	app.SetLessonsFlag(a, *lessonsDir)
	err := wails.Run(&options.App{
		Title:  "小教室 Kid Coder",
		Width:  1280,
		Height: 820,
		// Below an 800x600 screen's work area: a window manager's title bar
		// and panels must still leave room for the whole window.
		MinWidth:         640,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 255, G: 250, B: 240, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup: func(ctx context.Context) {
			shell = wailsShell{ctx}
			if p := os.Getenv("KIDCODER_EVENT_LOG"); p != "" {
				shell = app.LogEvents(shell, p)
			}
			app.Startup(a, ctx, shell)
			go watchPage(ctx, loaded, note)
		},
		OnDomReady: func(ctx context.Context) {
			note("window:dom-ready")
			loadOnce.Do(func() { close(loaded) })
			fitToScreen(ctx)
			if withoutWindowManager() {
				remap(ctx)
				// GTK forgets a move still pending when a window is
				// unmapped: the window may be back where it was.
				fitToScreen(ctx)
			}
		},
		// The window's close button, the window manager and a signal all
		// come here first: the window hands over the editor's last text
		// before it goes, and Shutdown writes it.
		OnBeforeClose: func(ctx context.Context) bool {
			return app.BeforeClose(a, windowCloser{ctx})
		},
		OnShutdown: func(context.Context) { app.Shutdown(a) },
		Bind:       []interface{}{a},
		// Dropped .kidpack files reach the frontend as paths (runtime.OnFileDrop).
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true, DisableWebViewDrop: true},
		Linux:       &linux.Options{Icon: icon, ProgramName: "kidcoder", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
		Mac:         &mac.Options{About: &mac.AboutInfo{Title: "Kid Coder 小教室", Icon: icon}},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kidcoder:", err)
		return 1
	}
	return 0
}

// wailsShell gives the app the Wails runtime's events and dialogs.
type wailsShell struct{ ctx context.Context }

func (s wailsShell) Emit(event string, data any) { runtime.EventsEmit(s.ctx, event, data) }

func (s wailsShell) SaveDialog(dir, name string) (string, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = "" // Wails refuses a start folder that does not exist
	}
	return runtime.SaveFileDialog(s.ctx, runtime.SaveDialogOptions{DefaultDirectory: dir, DefaultFilename: name})
}

func (s wailsShell) DirectoryDialog(dir string) (string, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = "" // Wails refuses a start folder that does not exist
	}
	return runtime.OpenDirectoryDialog(s.ctx, runtime.OpenDialogOptions{DefaultDirectory: dir, CanCreateDirectories: true})
}

func (s wailsShell) OpenFileDialog(pattern string) (string, error) {
	return runtime.OpenFileDialog(s.ctx, runtime.OpenDialogOptions{
		Filters: []runtime.FileFilter{{DisplayName: "Kid Coder pack (" + pattern + ")", Pattern: pattern}},
	})
}

// windowCloser closes the window for the app once it has the editor's text.
type windowCloser struct{ ctx context.Context }

func (c windowCloser) Quit()                     { runtime.Quit(c.ctx) }
func (c windowCloser) PressKey(name string) bool { return pressKey(name) }

// fitToScreen shrinks the window to the screen it opened on when the screen
// is smaller than the default size (a netbook, a projector at 800x600), so
// no part of the classroom starts outside the screen.
func fitToScreen(ctx context.Context) {
	screens, err := runtime.ScreenGetAll(ctx)
	if err != nil {
		return
	}
	for _, sc := range screens {
		if !sc.IsCurrent && len(screens) > 1 {
			continue
		}
		x, y := runtime.WindowGetPosition(ctx)
		w, h := runtime.WindowGetSize(ctx)
		g, fit := fitWindow(placement{x, y, w, h}, sc.Size.Width, sc.Size.Height)
		if fit == moveWindow && !withoutWindowManager() {
			// A window manager puts its frame around the window, which a
			// size chosen here cannot know: maximised, frame and all fit
			// its work area.
			fit = maximiseWindow
		}
		switch fit {
		case moveWindow:
			runtime.WindowSetSize(ctx, g.w, g.h)
			// Placed by hand, not WindowCenter: that centres the size the
			// window had before the resize lands.
			runtime.WindowSetPosition(ctx, g.x, g.y)
		case maximiseWindow:
			// A window manager fits a maximised window inside its work
			// area, below its title bar and panels; without one the
			// window is already on the screen and this does nothing.
			runtime.WindowMaximise(ctx)
		}
		return
	}
}

// pageLoadWait is how long the window waits for its page before it loads
// the page again: the page loads in well under a second, and in seconds on
// a busy machine.
const pageLoadWait = 15 * time.Second

// watchPage loads the page again, a few times at most, while it has not
// loaded: a window whose page never loads stays an empty cream page for
// good, and a child can do nothing about it.
func watchPage(ctx context.Context, loaded <-chan struct{}, note func(string)) {
	for try := 0; try < 3; try++ {
		select {
		case <-loaded:
			return
		case <-ctx.Done():
			return
		case <-time.After(pageLoadWait):
		}
		fmt.Fprintf(os.Stderr, "kidcoder: the page has not loaded after %s; loading it again\n", pageLoadWait*time.Duration(try+1))
		note("window:reload")
		runtime.WindowReloadApp(ctx)
	}
}

// remap shows the window again once its page has loaded and it is placed.
// Without a window manager the page can load and run while the window
// stays an empty cream page for good (6 launches in 49 on a busy machine
// under Xvfb); a resize does not bring it back, a new map does, and a
// window mapped anew after it is placed painted in every launch tried.
// With a window manager this was never seen, and a hidden and shown window
// could be placed again, so it is left alone there.
func remap(ctx context.Context) {
	runtime.WindowHide(ctx)
	runtime.WindowShow(ctx)
}

// placement is a window's position and size on its screen.
type placement struct{ x, y, w, h int }

// titleRoom is the height kept free for a window manager's title bar (and
// frame) when the window is shrunk to a small screen.
const titleRoom = 40

// What fitToScreen does with the window.
const (
	leaveWindow = iota
	moveWindow
	maximiseWindow
)

// fitWindow says what to do with window p on a sw x sh screen. A window
// partly off the screen is shrunk to fit below a title bar and placed at the
// top, centred across: GTK already shrinks a window larger than the screen
// but keeps the place it chose for the larger one (-240,-110 on an 800x600
// screen without a window manager). A window on the screen that leaves no
// room for a title bar is maximised, which a window manager fits to its
// work area (GTK gives the frame's place but the size without the frame).
func fitWindow(p placement, sw, sh int) (placement, int) {
	switch {
	case sw <= 0 || sh <= 0:
		return p, leaveWindow
	case p.x < 0 || p.y < 0 || p.x+p.w > sw || p.y+p.h > sh:
		w, h := min(p.w, sw), min(p.h, sh-titleRoom)
		return placement{x: (sw - w) / 2, y: 0, w: w, h: h}, moveWindow
	case p.y+p.h+titleRoom > sh:
		return p, maximiseWindow
	}
	return p, leaveWindow
}
