//go:build !linux

package sandbox

// landlockPlatform is false: Landlock is Linux's; elsewhere the one wall
// is the platform's own (Seatbelt on macOS).
const landlockPlatform = false

func landlockABI() int { return 0 }
