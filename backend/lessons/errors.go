package lessons

import (
	"errors"
	"fmt"

	"kidcoder/backend/text"
)

// Code names a kind of failure. The UI maps it to text with [Code.Text]; it is
// stable across releases because the frontend keys on it.
type Code string

const (
	CodeFolderMissing     Code = "folder_missing"
	CodeFolderUnreadable  Code = "folder_unreadable"
	CodeNotFound          Code = "not_found"
	CodeUnreadable        Code = "unreadable"
	CodeExists            Code = "exists"
	CodeBadName           Code = "bad_name"
	CodeOutsideFolder     Code = "outside_folder"
	CodeTooLarge          Code = "too_large"
	CodeBinary            Code = "binary"
	CodeNeedsConversion   Code = "needs_conversion"
	CodeConflict          Code = "conflict"
	CodeNotLesson         Code = "not_lesson"
	CodeNothingToUndo     Code = "nothing_to_undo"
	CodeWriteFailed       Code = "write_failed"
	CodeChangedOnDisk     Code = "changed_on_disk"
	CodeKeptBoth          Code = "kept_both"
	CodeDeletedOnDisk     Code = "deleted_on_disk"
	CodeRenamedOnDisk     Code = "renamed_on_disk"
	CodeNoDocumentsFolder Code = "no_documents_folder"
	CodeNotPlainFile      Code = "not_plain_file"
)

// Text is code's message in both languages, from the one catalogue (key
// "lessons."+code), its {name} placeholders filled from vars: kept_both
// takes {name}, the file the other version was saved as; renamed_on_disk
// {name}, the lesson's new name.
func (c Code) Text(vars map[string]string) text.Text {
	return text.Of("lessons."+string(c), vars)
}

// Error is every error this package returns for a reason the child or parent
// can act on. Compare with errors.Is against the Err* sentinels.
type Error struct {
	Code Code
	Path string // relative to the lessons folder when known
	Err  error  // the underlying cause, if any
}

func (e *Error) Error() string {
	s := "lessons: " + string(e.Code)
	if e.Path != "" {
		s += " " + fmt.Sprintf("%q", e.Path)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes every *Error match the sentinel with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Path == "" && t.Err == nil && t.Code == e.Code
}

// Sentinels for errors.Is. Each is returned (wrapped in an *Error carrying the
// path) in the situation its name says.
var (
	// ErrFolderMissing: the lessons folder does not exist (moved, deleted, or
	// an unplugged drive).
	ErrFolderMissing = &Error{Code: CodeFolderMissing}
	// ErrFolderUnreadable: the lessons folder exists but can't be listed.
	ErrFolderUnreadable = &Error{Code: CodeFolderUnreadable}
	// ErrNotFound: the lesson or group named does not exist.
	ErrNotFound = &Error{Code: CodeNotFound}
	// ErrUnreadable: the file exists but can't be read (permissions, a
	// sync client's placeholder that fails to download).
	ErrUnreadable = &Error{Code: CodeUnreadable}
	// ErrExists: creating or renaming would replace something that exists,
	// or a [Writer] found a file where it was to make or replace a folder.
	ErrExists = &Error{Code: CodeExists}
	// ErrBadName: a new entry's name breaks [CheckName] (its cause is then
	// a *NameError saying why), or a path has a NUL or, on Windows, a
	// backslash; for a [Writer]'s metadata, a name that is not portable, or
	// a metadata folder's name that is not hidden or is one of this
	// package's own.
	ErrBadName = &Error{Code: CodeBadName}
	// ErrOutsideFolder: the path leaves the lessons folder, directly or
	// through a symbolic link.
	ErrOutsideFolder = &Error{Code: CodeOutsideFolder}
	// ErrTooLarge: the file is over [MaxLessonSize]; it is not opened.
	ErrTooLarge = &Error{Code: CodeTooLarge}
	// ErrBinary: the file holds NUL bytes, so it is not a program.
	ErrBinary = &Error{Code: CodeBinary}
	// ErrNeedsConversion: saving would change the file's encoding to UTF-8
	// and the caller did not say the user agreed.
	ErrNeedsConversion = &Error{Code: CodeNeedsConversion}
	// ErrConflict: the file changed on disk since the version the caller
	// edited; it is returned as a *ConflictError.
	ErrConflict = &Error{Code: CodeConflict}
	// ErrNotLesson: the path is not a .py file.
	ErrNotLesson = &Error{Code: CodeNotLesson}
	// ErrNothingToUndo: Undo was given an unknown or already restored id.
	ErrNothingToUndo = &Error{Code: CodeNothingToUndo}
	// ErrNoDocumentsFolder: no default folder can be worked out for this user.
	ErrNoDocumentsFolder = &Error{Code: CodeNoDocumentsFolder}
	// ErrNotPlainFile: the file is a FIFO, device, socket or folder, or a
	// symbolic link appeared where the file was; it is not read. A [Writer]
	// returns it for a symbolic link where it needs a real folder, and for a
	// folder where it would write a file.
	ErrNotPlainFile = &Error{Code: CodeNotPlainFile}
)

// ConflictError is returned by Save when the file on disk is no longer the
// version the caller started from. Nothing was written.
type ConflictError struct {
	Path        string
	DiskVersion string // "" when the file was deleted on disk
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("lessons: conflict %q: changed on disk (now %s)", e.Path, e.DiskVersion)
}

func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// CodeOf returns the code of the first *Error or *ConflictError in err's
// chain, or "" for an error this package did not classify.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var c *ConflictError
	if errors.As(err, &c) {
		return CodeConflict
	}
	return ""
}

// Problem is an error made ready for the UI: its code and both texts, in
// JSON {"code", "zh", "en"} (the text is embedded, so its fields sit beside code).
type Problem struct {
	Code Code `json:"code"`
	text.Text
}

// ProblemOf turns err into a Problem; unclassified errors keep their text.
func ProblemOf(err error) *Problem {
	if err == nil {
		return nil
	}
	code := CodeOf(err)
	if code == "" {
		return &Problem{Code: "", Text: text.Text{Zh: err.Error(), En: err.Error()}}
	}
	var ne *NameError
	if code == CodeBadName && errors.As(err, &ne) {
		return &Problem{Code: code, Text: ne.Text()} // says what to change
	}
	return &Problem{Code: code, Text: code.Text(nil)}
}

func newErr(code Code, path string, err error) *Error {
	return &Error{Code: code, Path: path, Err: err}
}
