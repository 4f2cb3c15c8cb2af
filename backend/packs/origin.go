package packs

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"kidcoder/backend/safefile"
)

// Origin is who a pack comes from. A pack's identity is its id and its
// origin: an import updates an earlier one only when it comes from the same
// origin (see [Pack.Updates]), so a stranger reusing an id can never take
// over another author's pack or Kid Coder's own course.
type Origin string

const (
	// Unsigned is the origin of a pack that carries no signature: anyone
	// could have made it, so it never updates a signed pack.
	Unsigned Origin = "unsigned"
	// Builtin is the origin of Kid Coder's own course, read by
	// [ReadBuiltin]; no pack file has it.
	Builtin Origin = "builtin"
	// keyOrigin prefixes the base64 of the ed25519 public key a pack is signed with.
	keyOrigin = "ed25519:"
)

// ReservedPrefix starts the ids of Kid Coder's own course: a pack file
// with such an id is refused ([ErrReservedID]), signed or not.
const ReservedPrefix = "kidcoder."

// IsReservedID reports whether id belongs to Kid Coder's own course.
func IsReservedID(id string) bool { return strings.HasPrefix(id, ReservedPrefix) }

// KeyOrigin is the origin of packs signed with pub.
func KeyOrigin(pub ed25519.PublicKey) Origin {
	return Origin(keyOrigin + base64.StdEncoding.EncodeToString(pub))
}

// key is the public key of a signed origin; nil for any other.
func (o Origin) key() ed25519.PublicKey {
	s, ok := strings.CutPrefix(string(o), keyOrigin)
	if !ok {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil
	}
	return ed25519.PublicKey(b)
}

// Fingerprint is how a signed origin is shown to a person: the first 12
// bytes of the key's SHA-256 in groups of four hex digits ("1a2b 3c4d …").
// It is "" for an unsigned or built-in pack. Identity compares the whole
// key; the fingerprint is only for reading out.
func (o Origin) Fingerprint() string {
	k := o.key()
	if k == nil {
		return ""
	}
	sum := sha256.Sum256(k)
	h := hex.EncodeToString(sum[:12])
	groups := make([]string, 0, len(h)/4)
	for i := 0; i < len(h); i += 4 {
		groups = append(groups, h[i:i+4])
	}
	return strings.Join(groups, " ")
}

// Signer is the origin as the CLI and the window show it: "built-in",
// "unsigned" or "key " and the fingerprint. An import recorded before
// origins were (o == "") shows as unsigned.
func (o Origin) Signer() string {
	switch {
	case o == Builtin:
		return "built-in"
	case o.key() != nil:
		return "key " + o.Fingerprint()
	}
	return string(Unsigned)
}

// The signature of a built pack is its zip archive's comment, which every
// zip reader, older Kid Coders included, passes over: a signed pack imports
// as an unsigned one there. It is sigTag, the key and the signature of
// sigTag, a NUL and the pack.json entry's bytes, in base64; pack.json lists
// the size and sha256 of every other entry, and any entry it does not list
// is refused, so the signature covers the whole pack.
const (
	sigTag    = "kidpack-sig-v1"
	sigFamily = "kidpack-sig-"
)

func signedMessage(manifest []byte) []byte {
	return append([]byte(sigTag+"\x00"), manifest...)
}

func signatureComment(manifest []byte, key ed25519.PrivateKey) string {
	sig := ed25519.Sign(key, signedMessage(manifest))
	pub := key.Public().(ed25519.PublicKey)
	return sigTag + " ed25519 " + base64.StdEncoding.EncodeToString(pub) + " " + base64.StdEncoding.EncodeToString(sig)
}

// originOf checks the archive comment of a pack whose pack.json is
// manifest. No comment, or one that is not a signature, is an unsigned
// pack: a comment can only ever add a claim, never lift one.
func originOf(comment string, manifest []byte) (Origin, error) {
	if !strings.HasPrefix(comment, sigFamily) {
		return Unsigned, nil
	}
	f := strings.Split(comment, " ")
	if f[0] != sigTag {
		return "", fmt.Errorf("%w (signature %s)", ErrNewerFormat, printable(f[0]))
	}
	if len(f) != 4 || f[1] != "ed25519" {
		return "", ErrBadSignature
	}
	pub, err1 := base64.StdEncoding.DecodeString(f[2])
	sig, err2 := base64.StdEncoding.DecodeString(f[3])
	if err1 != nil || err2 != nil || len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return "", ErrBadSignature
	}
	if !ed25519.Verify(pub, signedMessage(manifest), sig) {
		return "", ErrBadSignature
	}
	return KeyOrigin(pub), nil
}

// maxKeyBytes bounds a key file: a PEM ed25519 key is about 120 bytes.
const maxKeyBytes = 16 << 10

const pemType = "PRIVATE KEY"

// GenerateKey writes a new ed25519 signing key to file (PKCS #8 PEM,
// readable by its owner only) and returns the origin of the packs it will
// sign. An existing file is never overwritten: it may be the only copy of
// a key that earlier packs were signed with.
func GenerateKey(file string) (Origin, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if err := pem.Encode(f, &pem.Block{Type: pemType, Bytes: der}); err != nil {
		f.Close()
		os.Remove(file)
		return "", err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(file)
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return KeyOrigin(pub), nil
}

// ReadKey reads a signing key written by [GenerateKey].
func ReadKey(file string) (ed25519.PrivateKey, error) {
	b, err := safefile.ReadFile(file, maxKeyBytes)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != pemType {
		return nil, fmt.Errorf("%s: %w", file, ErrNotKey)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrNotKey, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: %w: not an ed25519 key", file, ErrNotKey)
	}
	return priv, nil
}

// ErrNotKey is returned by ReadKey for a file that is not an ed25519 private key in PEM.
var ErrNotKey = errors.New("not a pack signing key (kidcoder pack keygen makes one)")
