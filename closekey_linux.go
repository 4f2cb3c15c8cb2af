package main

/*
#cgo pkg-config: gtk+-3.0
#include <stdlib.h>
#include <gtk/gtk.h>

// press_in_window presses keyval in the app's window as the keyboard would,
// on the main thread: the event goes to the end of GDK's queue and from
// there the way every key goes, to the web view, whose queue hands keys to
// the page in order. The window is the toplevel whose focus is the web view.
static gboolean press_in_window(gpointer data) {
	guint keyval = GPOINTER_TO_UINT(data);
	GtkWindow *win = NULL;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL && win == NULL; l = l->next) {
		GtkWidget *focus = gtk_window_get_focus(GTK_WINDOW(l->data));
		if (focus != NULL && g_str_has_prefix(G_OBJECT_TYPE_NAME(focus), "WebKitWebView"))
			win = GTK_WINDOW(l->data);
	}
	g_list_free(tops);
	GdkWindow *gw = win != NULL ? gtk_widget_get_window(GTK_WIDGET(win)) : NULL;
	if (gw == NULL)
		return G_SOURCE_REMOVE;
	GdkDisplay *display = gdk_window_get_display(gw);
	GdkEvent *ev = gdk_event_new(GDK_KEY_PRESS);
	ev->key.window = g_object_ref(gw);
	ev->key.send_event = TRUE;
	ev->key.time = GDK_CURRENT_TIME;
	ev->key.keyval = keyval;
	ev->key.string = g_strdup("");
	GdkKeymapKey *keys = NULL;
	gint n = 0;
	if (gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(display), keyval, &keys, &n) && n > 0) {
		ev->key.hardware_keycode = keys[0].keycode;
		ev->key.group = keys[0].group;
	}
	g_free(keys);
	gdk_event_set_device(ev, gdk_seat_get_keyboard(gdk_display_get_default_seat(display)));
	gdk_display_put_event(display, ev);
	gdk_event_free(ev);
	return G_SOURCE_REMOVE;
}

static void press_key(guint keyval) {
	g_idle_add(press_in_window, GUINT_TO_POINTER(keyval));
}
*/
import "C"

import "unsafe"

// pressKey presses the key named name (a GDK key name, "F24") in the
// window, behind the keys already on their way to the page; false for a
// name GDK does not know.
func pressKey(name string) bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	keyval := C.gdk_keyval_from_name(cname)
	if keyval == C.GDK_KEY_VoidSymbol {
		return false
	}
	C.press_key(keyval)
	return true
}
