#!/usr/bin/python3
"""A small window at the screen's top-left corner that offers PATH as a dragged file
(text/uri-list), the way a file manager does: the end-to-end test drags it onto the app with
xdotool, so the drop crosses X11's drag-and-drop protocol into the real window.
Usage: drag_source.py PATH  (prints "ready" once shown; exits after the drag or 60 s)."""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

uri = GLib.filename_to_uri(sys.argv[1], None)
win = Gtk.Window(title="drag source")
win.set_default_size(120, 120)
win.move(0, 0)
box = Gtk.EventBox()
box.add(Gtk.Label(label="drag me"))
win.add(box)
box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
box.drag_source_add_uri_targets()
box.connect("drag-data-get", lambda w, ctx, data, info, t: data.set_uris([uri]))
box.connect("drag-end", lambda *a: GLib.timeout_add(500, Gtk.main_quit))
win.connect("destroy", Gtk.main_quit)
win.show_all()
GLib.timeout_add_seconds(60, Gtk.main_quit)
print("ready", flush=True)
Gtk.main()
