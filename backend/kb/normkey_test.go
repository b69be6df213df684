package kb

import "testing"

func TestTopicKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Mercury (planet)", "mercury"},
		{"  The Beatles  ", NormKey("The Beatles")},
		{"Alû (river)", "alû"},
		{"(1999)", NormKey("(1999)")}, // nothing before the parentheses: kept
		{"Smith (painter) (born 1900)", NormKey("Smith (painter)")},
		{"北京", "北京"},
		{"", ""},
	} {
		if got := TopicKey(tc.in); got != tc.want {
			t.Errorf("TopicKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
