package packs

import (
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Sentinel errors, each wrapped in a *FileError or *FieldError that names
// where the problem is. Test with errors.Is.
var (
	// ErrUnsafePath is returned for an entry name that could escape the pack's
	// folder or is not portable: "..", an absolute path, a backslash, a drive
	// letter, a hidden or Windows-reserved element.
	ErrUnsafePath = errors.New("unsafe file name")
	// ErrBadName is returned for an entry name that is not valid UTF-8 or holds control characters.
	ErrBadName = errors.New("file name is not valid text")
	// ErrNotRegular is returned for a symbolic link or any entry that is not a plain file.
	ErrNotRegular = errors.New("not a plain file (symbolic links are not allowed)")
	// ErrDuplicate is returned when two entries have the same name, ignoring case.
	ErrDuplicate = errors.New("duplicate file name")
	// ErrTooLarge is returned when a file, the manifest or the pack passes its size bound.
	ErrTooLarge = errors.New("too large")
	// ErrTooManyFiles is returned when a pack holds more entries than allowed.
	ErrTooManyFiles = errors.New("too many files")
	// ErrCompressionRatio is returned for an entry that expands suspiciously
	// much (a zip bomb), or whose real size differs from the size it declares.
	ErrCompressionRatio = errors.New("suspicious compression")
	// ErrEncrypted is returned for an encrypted zip entry.
	ErrEncrypted = errors.New("encrypted entries are not supported")
	// ErrChecksum is returned when a file's size or sha256 differs from the manifest.
	ErrChecksum = errors.New("content does not match the manifest (damaged or altered pack)")
	// ErrUnlisted is returned for a file in the pack that the manifest does not list.
	ErrUnlisted = errors.New("file is not listed in the manifest")
	// ErrMissing is returned for a file the manifest names but the pack lacks.
	ErrMissing = errors.New("file is missing")
	// ErrManifest is returned for a manifest that is not valid JSON or breaks a rule of docs/pack.schema.json.
	ErrManifest = errors.New("invalid manifest")
	// ErrNewerFormat is returned for a pack written for a newer format than this program reads.
	ErrNewerFormat = errors.New("this pack needs a newer version of Kid Coder")
	// ErrNotZip is returned for a .kidpack file that is not a zip archive.
	ErrNotZip = errors.New("not a .kidpack (zip) file")
	// ErrOlderVersion is returned by Import when the lessons folder already
	// holds a newer version of the same pack.
	ErrOlderVersion = errors.New("a newer version of this pack is already imported")
	// ErrBadSignature is returned for a pack whose signature does not match
	// its key or its pack.json: a signed pack altered since, or a signature
	// taken from another pack.
	ErrBadSignature = errors.New("the signature does not match (damaged or altered pack)")
	// ErrReservedID is returned by Import for a pack file whose id is one of
	// Kid Coder's own course (kidcoder.*): only the course itself has it.
	ErrReservedID = errors.New("this id belongs to Kid Coder's own course: a pack file may not use it")
	// ErrOtherAuthor is returned by Import when the lessons folder holds a
	// pack with the same id from another origin (another key, or signed
	// while this one is not): the file is not its update.
	ErrOtherAuthor = errors.New("a pack with this id from another author is already imported; this file is not its update")
)

// FileError is a problem with one file of a pack.
type FileError struct {
	Pack string // the pack's file or folder
	File string // the entry inside the pack; "" for the pack itself
	Err  error
}

func (e *FileError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%s: %v", e.Pack, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.Pack, printable(e.File), e.Err)
}

// printable quotes a name only when it holds bytes a terminal would hide or mangle.
func printable(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

func (e *FileError) Unwrap() error { return e.Err }

// FieldError is a rule of the manifest that one field breaks.
type FieldError struct {
	File  string // "pack.json" or the pack file holding it
	Field string // JSON path, e.g. "exercises[0].checks[1].match"
	Msg   string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
}

func (e *FieldError) Unwrap() error { return ErrManifest }

func fileErr(pack, file string, err error) error {
	return &FileError{Pack: pack, File: file, Err: err}
}
