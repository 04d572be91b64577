package account

// throttle.go is the login throttle's side of accounts (docs/players.md
// "The login throttle"; OWASP's Authentication and Credential Stuffing cheat
// sheets): failed logins are counted per name and per client address,
// and a browser the name logged in from before carries a signed device
// cookie whose tries are counted on their own, so that failures sent
// from elsewhere never lock the owner out.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"
)

// LoginAttempt is one try at logging in, as the throttle counts it.
type LoginAttempt struct {
	NameKey string    // NameKey of the name tried
	Address string    // the client's address (an IPv6 client's /64)
	Device  string    // the id of a valid device cookie for NameKey, "" for none
	At      time.Time // when; with NameKey, it names the try
}

// LoginLimits are the throttle's limits: within Window, at most PerName
// failures for one name from browsers without its device cookie, at most
// PerAddress from one address across names, at most PerDevice from one
// device cookie (which the name and address limits do not stop).
type LoginLimits struct {
	Window                         time.Duration
	PerName, PerAddress, PerDevice int
}

// Throttled says which limit refused a try; ThrottleNone lets it through.
type Throttled string

// The limits that refuse a try.
const (
	ThrottleNone    Throttled = ""
	ThrottleName    Throttled = "name"
	ThrottleAddress Throttled = "address"
	ThrottleDevice  Throttled = "device"
)

// deviceBytes is the randomness of a device cookie's id.
const deviceBytes = 16

// NewDevice returns a device cookie for the name whose key is nameKey: a
// random id and its HMAC with the name's key, so that it is worth
// nothing for another name and cannot be forged.
func (s Signer) NewDevice(nameKey string) string {
	b := make([]byte, deviceBytes)
	rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	return id + "." + base64.RawURLEncoding.EncodeToString(s.deviceMAC(nameKey, id))
}

// Device returns the id of cookie when it is a device cookie this
// archive made for nameKey, "" otherwise.
func (s Signer) Device(cookie, nameKey string) string {
	id, sig, ok := strings.Cut(cookie, ".")
	if !ok || len(id) != base64.RawURLEncoding.EncodedLen(deviceBytes) {
		return ""
	}
	mac, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(mac, s.deviceMAC(nameKey, id)) {
		return ""
	}
	return id
}

// deviceMAC signs a device cookie's id for a name, under a key of its own
// (derived from the session cookies' key).
func (s Signer) deviceMAC(nameKey, id string) []byte {
	k := hmac.New(sha256.New, s.secret)
	k.Write([]byte("sudoku device cookie"))
	m := hmac.New(sha256.New, k.Sum(nil))
	m.Write([]byte(nameKey))
	m.Write([]byte{0})
	m.Write([]byte(id))
	return m.Sum(nil)[:macBytes]
}
