package triage

import "regexp"

// testCardNumbers are the card numbers payment processors publish for
// testing (Stripe, Adyen, Braintree, PayPal and the card schemes' own test
// ranges): no account stands behind them, so finding only these is finding
// test data, not cardholder data.
var testCardNumbers = setOf(
	"4111111111111111", "4242424242424242", "4000056655665556", "4012888888881881", "4000000000000002",
	"4000000000009995", "4000000000000077", "4222222222222", "4917610000000000", "4988438843884305",
	"5555555555554444", "5105105105105100", "5200828282828210", "5454545454545454", "2223003122003222",
	"378282246310005", "371449635398431", "378734493671000", "6011111111111117", "6011000990139424",
	"3056930009020004", "36227206271667", "3566002020360505", "6200000000000005",
)

var cardNumberRe = regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`)

// onlyTestCards reports whether text holds card-like numbers and every one
// of them is a published test number.
func onlyTestCards(text string) bool {
	found := false
	for _, m := range cardNumberRe.FindAllString(text, -1) {
		digits := make([]byte, 0, len(m))
		for i := 0; i < len(m); i++ {
			if m[i] >= '0' && m[i] <= '9' {
				digits = append(digits, m[i])
			}
		}
		if !luhnValid(digits) {
			continue
		}
		if !testCardNumbers[string(digits)] {
			return false
		}
		found = true
	}
	return found
}

// luhnValid checks the card-number check digit, so order numbers and other
// long digit runs are not taken for cards.
func luhnValid(digits []byte) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		n := int(digits[i] - '0')
		if double {
			if n *= 2; n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return len(digits) > 0 && sum%10 == 0
}
