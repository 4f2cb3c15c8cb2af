// Package app is the thin layer the desktop shell binds: each method checks its arguments and calls a domain package.
package app
