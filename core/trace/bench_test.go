package trace

import "testing"

// BenchmarkAppendJSONL encodes the events a large election traces most: a
// send and its delivery, with the numbers such a run reaches (six-digit
// times and ids, seven-digit sequence numbers), and a state change.
func BenchmarkAppendJSONL(b *testing.B) {
	events := []Event{
		{T: 48213, Seq: 2913377, Type: Send, Node: 73511, Local: 48213, From: 73511, To: 73512, Kind: "ELECTION", MsgID: 1934471, Msg: election{99876}},
		{T: 48214, Seq: 2913378, Type: Deliver, Node: 73512, Local: 48214, From: 73511, To: 73512, Kind: "ELECTION", MsgID: 1934471, Msg: election{99876}},
		{T: 48214, Seq: 2913379, Type: State, Node: 73512, Local: 48214, Key: "role", Old: "follower", New: "candidate"},
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for i := range events {
			buf = AppendJSONL(buf[:0], &events[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
}
