package lessons

import (
	"errors"
	"fmt"
)

// Code names a kind of failure. The UI maps it to text with [Message]; it is
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
	CodeNoDocumentsFolder Code = "no_documents_folder"
	CodeNotPlainFile      Code = "not_plain_file"
)

// Text is one user-facing message in both languages.
type Text struct {
	Zh string `json:"zh"`
	En string `json:"en"`
}

// Messages is the zh/en text for every code, so that the app and any other
// front end show the same words.
var Messages = map[Code]Text{
	CodeFolderMissing:     {"找不到课程文件夹。它可能被移动或删除了。", "The lessons folder can't be found. It may have been moved or deleted."},
	CodeFolderUnreadable:  {"无法打开课程文件夹，请检查权限。", "The lessons folder can't be opened. Please check its permissions."},
	CodeNotFound:          {"找不到这个课程文件。", "This lesson file can't be found."},
	CodeUnreadable:        {"无法读取这个文件，请检查权限。", "This file can't be read. Please check its permissions."},
	CodeExists:            {"已经有一个同名的文件或文件夹了。", "A file or folder with that name already exists."},
	CodeBadName:           {"这个名字不能用作文件名。", "That name can't be used as a file name."},
	CodeOutsideFolder:     {"这个文件不在课程文件夹里。", "This file is outside the lessons folder."},
	CodeTooLarge:          {"文件太大了（超过 1 MiB），无法打开。", "This file is too big to open (more than 1 MiB)."},
	CodeBinary:            {"这不是文本文件，无法打开。", "This is not a text file, so it can't be opened."},
	CodeNeedsConversion:   {"这个文件不是 UTF-8 编码。要转换成 UTF-8 再保存吗？", "This file is not in UTF-8. Convert it to UTF-8 and save?"},
	CodeConflict:          {"文件在别处被修改了，两个版本都会保留。", "The file was changed somewhere else; both versions will be kept."},
	CodeNotLesson:         {"只有 .py 文件才是课程。", "Only .py files are lessons."},
	CodeNothingToUndo:     {"没有可以撤销的删除。", "There is no deletion to undo."},
	CodeWriteFailed:       {"保存失败，原来的内容没有改变。", "Saving failed; the previous content is unchanged."},
	CodeChangedOnDisk:     {"这个课程在别处被修改了，已重新载入。", "This lesson was changed somewhere else and has been reloaded."},
	CodeKeptBoth:          {"这个课程在别处被修改了。你的修改还在，另一个版本另存为“%s”。", "This lesson was changed somewhere else. Your edits are kept; the other version was saved as “%s”."},
	CodeDeletedOnDisk:     {"这个课程在别处被删除了。保存即可重新创建。", "This lesson was deleted somewhere else. Save to create it again."},
	CodeNoDocumentsFolder: {"找不到“文档”文件夹，请用 --lessons 指定课程文件夹。", "The Documents folder can't be found; choose a lessons folder with --lessons."},
	CodeNotPlainFile:      {"这不是普通文件（可能是链接或特殊文件），无法打开。", "This is not an ordinary file (it may be a link or a special file), so it can't be opened."},
}

// Message returns the text for code in lang ("zh" or "en"; anything else is
// English). Texts containing %s take args.
func Message(code Code, lang string, args ...any) string {
	t, ok := Messages[code]
	if !ok {
		return string(code)
	}
	s := t.En
	if lang == "zh" {
		s = t.Zh
	}
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	return s
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
	// ErrBadName: the name is empty, hidden, has a path separator or is not
	// portable to Windows; for a [Writer]'s new entry, also one that
	// safefile.CleanName would change, or a metadata folder's name that is
	// not hidden or is one of this package's own.
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

// Problem is an error made ready for the UI: its code and both texts.
type Problem struct {
	Code Code   `json:"code"`
	Zh   string `json:"zh"`
	En   string `json:"en"`
}

// ProblemOf turns err into a Problem; unclassified errors keep their text.
func ProblemOf(err error) *Problem {
	if err == nil {
		return nil
	}
	code := CodeOf(err)
	if code == "" {
		return &Problem{Code: "", Zh: err.Error(), En: err.Error()}
	}
	return &Problem{Code: code, Zh: Message(code, "zh"), En: Message(code, "en")}
}

func newErr(code Code, path string, err error) *Error {
	return &Error{Code: code, Path: path, Err: err}
}
