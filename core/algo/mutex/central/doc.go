// Package central is the central coordinator mutual exclusion algorithm
// (the lecture notes "Synchronization, Coordination and Agreement", "Central
// Coordinator Based Algorithm"), composed with the bully election
// (core/algo/election/bully) that replaces a crashed coordinator. The
// registered Description states the rules; this comment keeps the handling
// of crashes, recoveries and stale messages in full.
//
// # Two variants
//
// The notes' prose counts "only three messages per use of a CS (request,
// OK, release)"; their pseudo code answers a request that has to wait with
// DENIED as well, so a contended entry costs four. Config denied=true (the
// default) follows the pseudo code, denied=false the prose.
//
// # Coordinator crash
//
// The notes: "if the coordinator crashes, a new coordinator must be created
// ... an election algorithm has to be run". The process is two layers, this
// algorithm over election.bully (its keys are offered as election_T,
// election_T2, ...; its timers read election/T). A process whose failure
// detector suspects its coordinator runs the election layer's elect
// command; the election layer sets "leader" when a coordinator is
// announced, and this layer follows it. On every announcement each process
// reports its state to the announced coordinator: a waiting process
// re-sends its REQUEST, a process in its critical section sends HELD, any
// other sends IDLE.
//
// # Recovery phase (the texts are silent)
//
// A process that becomes coordinator starts with an empty queue and state
// recovering=true. It queues the requests it receives (replying DENIED) but
// grants nothing until it has a report from every process its detector does
// not suspect (at once if it suspects all the others); a suspicion during
// the phase removes that process from the wait. A HELD report makes its
// sender the holder. When the last report is in, it grants the first queued
// request unless a process holds the critical section. So a process in its
// critical section is never overlooked, and a process whose RELEASE went to
// the dead coordinator reports IDLE and is not taken for the holder. The
// new queue is in the order the re-sent requests arrive. An already serving
// coordinator that is announced again (the bully re-announces after a
// recovery) keeps its queue and merges the reports: a report from a process
// that was holder or queued with another request (it crashed and recovered
// unnoticed) replaces what it knew of it.
//
// # Client crash
//
// When the coordinator's detector suspects a process, its request leaves
// the queue and, if it held the critical section, the next request is
// granted. A REQUEST or HELD numbered no higher than the time a process's
// detector suspected its sender was sent before the crash and is ignored
// when it arrives later. A recovered process starts released, numbers its
// requests on from its local clock (so they are not taken for its earlier
// life's; hence at most one request per tick) and reports to the
// coordinator the bully announces.
//
// # Suspected processes (the texts are silent)
//
// The coordinator grants nothing to a process its detector suspects, itself
// included. Such a process recovered less than the detector's delay ago, or
// crashed again since, which the detector, never having trusted it again,
// does not report: a grant could wait forever for its RELEASE. Its request
// stays queued (it was answered DENIED) and the grant goes to the first
// queued request of a trusted process, so trusted processes are served
// first come, first served. While it has a suspected process queued or
// takes one for the holder (by a HELD), the coordinator checks every
// election_T ticks: a process trusted by then is served in its turn; one
// still suspected is sent QUERY, which a process answers with its report to
// the coordinator it follows; one still suspected that has sent nothing by
// the next check crashed again: its request, or the critical section it
// held, is dropped.
//
// # Stale messages and deposed coordinators
//
// Messages carry the request's number (seq) and GRANTED, RELEASE and HELD
// the coordinator's grant number, so stale ones are recognised. A GRANTED
// is accepted only from the process currently followed as coordinator and
// only for the request waiting; any other is handed back with a RELEASE
// naming it, so that no coordinator takes the process for the holder.
// Overlapping bully elections can leave a process following a lower,
// deposed coordinator: a process that is not coordinator and receives a
// REQUEST, HELD or IDLE (while in an election: once it is over), and a
// deposed coordinator that had requests of others, start an election, after
// which the highest live process announces itself to all again. A
// coordinator announced while the detector suspects it (it recovered less
// than the detector's delay ago, or crashed again since) is probed with the
// election layer's probe command every election_T ticks until the detector
// trusts it: no REPLY within T starts an election.
//
// # Assumptions
//
// Reliable FIFO links, because a report must not overtake the REQUEST or
// RELEASE sent before it; a perfect failure detector; and the bully's
// synchrony: with election_T shorter than a round trip two processes may
// coordinate at once, or a live suspected process be taken for crashed.
package central
