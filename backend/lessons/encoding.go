package lessons

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// Encodings a lesson file can be found in.
const (
	EncUTF8    = "utf-8"
	EncUTF8BOM = "utf-8-bom" // kept on save: Python reads it fine and the file stays as the parent made it
	EncGB18030 = "gb18030"   // GBK and GB2312 are subsets; Chinese Windows editors save these
	EncUTF16LE = "utf-16le"
	EncUTF16BE = "utf-16be"
	EncUnknown = "unknown" // shown with U+FFFD for the bytes that could not be read
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// decodeText turns file bytes into display text and names the encoding it
// found. Text files with NUL bytes (other than UTF-16) are not programs.
func decodeText(b []byte) (string, string, error) {
	switch {
	case bytes.HasPrefix(b, bomUTF8) && utf8.Valid(b[3:]):
		if bytes.IndexByte(b, 0) >= 0 {
			return "", "", ErrBinary
		}
		return string(b[3:]), EncUTF8BOM, nil
	case bytes.HasPrefix(b, bomUTF16LE):
		s, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(b)
		return string(s), EncUTF16LE, err
	case bytes.HasPrefix(b, bomUTF16BE):
		s, err := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder().Bytes(b)
		return string(s), EncUTF16BE, err
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "", "", ErrBinary
	}
	if utf8.Valid(b) {
		return string(b), EncUTF8, nil
	}
	s, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b)
	if err == nil && !bytes.ContainsRune(s, utf8.RuneError) {
		return string(s), EncGB18030, nil
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), EncUnknown, nil
}

// needsConversion reports whether saving as plain UTF-8 would change the
// file's encoding in a way the user should agree to first.
func needsConversion(enc string) bool {
	return enc != EncUTF8 && enc != EncUTF8BOM
}

// encodeText turns editor text back into bytes: in the file's own encoding,
// or plain UTF-8 when toUTF8 (the user agreed to convert). A file whose
// encoding is unknown can't be written back faithfully, so it needs consent.
func encodeText(s, enc string, toUTF8 bool) ([]byte, error) {
	if toUTF8 {
		return []byte(s), nil
	}
	var e encoding.Encoding
	switch enc {
	case EncUTF8, "":
		return []byte(s), nil
	case EncUTF8BOM:
		return append(append([]byte{}, bomUTF8...), s...), nil
	case EncGB18030:
		e = simplifiedchinese.GB18030
	case EncUTF16LE:
		e = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case EncUTF16BE:
		e = unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	default:
		return nil, ErrNeedsConversion
	}
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		return nil, ErrNeedsConversion
	}
	return b, nil
}
