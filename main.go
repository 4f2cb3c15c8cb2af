// Command kidcoder-gui is the desktop classroom: a Wails window around the Svelte frontend.
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"kidcoder/app"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() { os.Exit(run()) }

func run() int {
	lessonsDir := flag.String("lessons", "", "lessons folder (default: $KIDCODER_LESSONS, then the one chosen in the app, then Documents/Kid Coder)")
	flag.Parse()
	a := app.New(os.Getenv("KIDCODER_SETTINGS"), "")
	app.SetLessonsFlag(a, *lessonsDir)
	err := wails.Run(&options.App{
		Title:            "小教室 Kid Coder",
		Width:            1280,
		Height:           820,
		MinWidth:         800,
		MinHeight:        600,
		BackgroundColour: &options.RGBA{R: 255, G: 250, B: 240, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup: func(ctx context.Context) {
			var shell app.Shell = wailsShell{ctx}
			if p := os.Getenv("KIDCODER_EVENT_LOG"); p != "" {
				shell = app.LogEvents(shell, p)
			}
			app.Startup(a, ctx, shell)
		},
		OnDomReady: fitToScreen,
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
		w, h := runtime.WindowGetSize(ctx)
		fw, fh := min(w, sc.Size.Width), min(h, sc.Size.Height)
		if fw != w || fh != h {
			runtime.WindowSetSize(ctx, fw, fh)
			runtime.WindowCenter(ctx)
		}
		return
	}
}
