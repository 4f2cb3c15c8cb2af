// Command kidcoder-devserver serves the built frontend to a normal browser,
// wired to the real app and sandbox over HTTP, for browser tests.
//
// It stands in for the Wails window: a small script defines window.go and
// window.runtime the way the Wails runtime does, calls go to POST /__call and
// events arrive over Server-Sent Events from /__events. It listens on
// loopback only and is never part of the installed app.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"sync"

	"kidcoder/app"
)

func main() { os.Exit(run()) }

func run() int {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	dist := flag.String("dist", "frontend/dist", "built frontend folder")
	settingsPath := flag.String("settings", "", "settings file (default: the user's)")
	cacheDir := flag.String("cache", "", "cache folder (default: the user's)")
	flag.Parse()

	a := app.New(*settingsPath, *cacheDir)
	hub := newHub()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	app.Startup(a, ctx, hub)
	defer app.Shutdown(a)

	mux := http.NewServeMux()
	mux.HandleFunc("/__call", func(w http.ResponseWriter, r *http.Request) { call(w, r, a) })
	mux.HandleFunc("/__events", hub.serve)
	mux.HandleFunc("/__bridge.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, bridgeJS)
	})
	files := http.FileServer(http.FS(os.DirFS(*dist)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			files.ServeHTTP(w, r)
			return
		}
		page, err := fs.ReadFile(os.DirFS(*dist), "index.html")
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		html := strings.Replace(string(page), "<head>", `<head><script src="/__bridge.js"></script>`, 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html)
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Print(err)
		return 1
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		log.Print("refusing to listen on a non-loopback address")
		return 1
	}
	// The test harness reads this line to find the port.
	fmt.Printf("listening on http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		log.Print(err)
		return 1
	}
	return 0
}

// call invokes one bound method with JSON arguments, as the Wails bridge does.
func call(w http.ResponseWriter, r *http.Request, a *app.App) {
	var req struct {
		Method string            `json:"method"`
		Args   []json.RawMessage `json:"args"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	m := reflect.ValueOf(a).MethodByName(req.Method)
	if !m.IsValid() || len(req.Args) != m.Type().NumIn() {
		http.Error(w, "no such method: "+req.Method, 404)
		return
	}
	in := make([]reflect.Value, len(req.Args))
	for i, raw := range req.Args {
		p := reflect.New(m.Type().In(i))
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		in[i] = p.Elem()
	}
	out := m.Call(in)
	var result any
	errType := reflect.TypeOf((*error)(nil)).Elem()
	for i, v := range out {
		if m.Type().Out(i) == errType {
			if !v.IsNil() {
				http.Error(w, v.Interface().(error).Error(), 500)
				return
			}
			continue
		}
		result = v.Interface()
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(result)
}

// hub fans events out to every connected page.
type hub struct {
	mu      sync.Mutex
	clients map[chan []byte]bool
}

func newHub() *hub { return &hub{clients: map[chan []byte]bool{}} }

func (h *hub) Emit(event string, data any) {
	msg, err := json.Marshal(map[string]any{"name": event, "data": data})
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c <- msg
	}
}

func (h *hub) SaveDialog(dir, name string) (string, error) { return "", nil }

// DirectoryDialog answers as a cancelled dialog: a browser test has no one to ask.
func (h *hub) DirectoryDialog(dir string) (string, error) { return "", nil }

// OpenFileDialog answers as a cancelled dialog, like DirectoryDialog.
func (h *hub) OpenFileDialog(pattern string) (string, error) { return "", nil }

func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", 500)
		return
	}
	c := make(chan []byte, 4096)
	h.mu.Lock()
	h.clients[c] = true
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.clients, c)
		h.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case msg := <-c:
			fmt.Fprintf(w, "data: %s\n\n", msg)
			flusher.Flush()
		}
	}
}

// bridgeJS defines window.go and window.runtime like the Wails runtime.
// Events that arrive before the page subscribes are queued, because the app
// may emit the sandbox status before the frontend has mounted.
const bridgeJS = `(function () {
  const listeners = {};
  const queued = {};
  const ready = new Promise((resolve) => {
    const es = new EventSource('/__events');
    es.onopen = () => resolve();
    es.onmessage = (m) => {
      const ev = JSON.parse(m.data);
      const ls = listeners[ev.name];
      if (ls && ls.length) ls.slice().forEach((cb) => cb(ev.data));
      else (queued[ev.name] = queued[ev.name] || []).push(ev.data);
    };
  });
  async function call(method, args) {
    await ready;
    const r = await fetch('/__call', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({method, args})});
    const text = await r.text();
    if (!r.ok) throw text.trim();
    return text ? JSON.parse(text) : null;
  }
  const App = new Proxy({}, {get: (_, name) => (...args) => call(String(name), args)});
  window.go = {app: {App}};
  window.runtime = {
    EventsOn(name, cb) { return window.runtime.EventsOnMultiple(name, cb, -1); },
    EventsOnMultiple(name, cb, max) {
      (listeners[name] = listeners[name] || []).push(cb);
      const q = queued[name]; delete queued[name];
      if (q) setTimeout(() => q.forEach((d) => cb(d)), 0);
      return () => { listeners[name] = (listeners[name] || []).filter((x) => x !== cb); };
    },
    EventsOff(name) { delete listeners[name]; },
    EventsEmit() {},
    BrowserOpenURL(u) { window.open(u); },
  };
})();
`
