// Package tokenring is the token ring mutual exclusion algorithm (the
// lecture notes "Synchronization, Coordination and Agreement", "Token Ring
// Algorithm"), composed with the Chang-Roberts ring election
// (core/algo/election/changroberts) that picks the one process that
// regenerates a lost token. The registered Description states the rules;
// this comment keeps the election, the regeneration and the safety
// argument in full.
//
// # Election
//
// Each process is two layers, this algorithm over election.changroberts
// (its keys are offered as election_watch, election_restart, ...; its hop is
// this algorithm's hop; watch is off by default, since the coordinator it
// elects has no role here; its timers read election/restart). A process that
// has seen no token for the timeout (timer "lost") runs the election layer's
// elect command; the holder does not run the timer. The layer sets "leader"
// when its ELECTED passes. The process it names regenerates the token if no
// token (usable or sweep) reached it since it became a candidate in that
// election, it holds none, and its own loss timeout has expired without a
// token since: at once if it expired already, otherwise when it does (a
// token arriving first cancels). Every other process, and the winner when
// the token did pass it, only re-arms its loss timer. Chang-Roberts elects
// one winner per election and simultaneous timeouts merge into one
// election, so a lost token is regenerated once; and an election run for
// another reason (a recovered process starts one when it rejoins) makes no
// token while the token goes round.
//
// # Regeneration and the generation number
//
// The winner makes a token of generation one above the newest it knows,
// named (generation, maker), and sends it round as a sweep. A process the
// sweep reaches learns its identity and from then on discards, with a log
// line, any older token that arrives ("stale token"); if it holds an older
// token outside its critical section it drops it, inside it keeps the sweep
// until it leaves, then drops the old token and forwards the sweep. A sweep
// that reaches a holder of a newer token is dropped (the token was not
// lost). A sweep that reaches a process that knows a newer identity passes
// on without teaching it, noting that generation. The sweep ends back at a
// process that has forwarded or made it (its maker, unless the maker is
// suspected and skipped), or after n messages, which take it round the
// whole ring: there it becomes the usable token, or, if a process knew a
// newer one, a new sweep one generation above everything seen (the one case
// where a process other than the winner makes a token).
//
// # Safety
//
// Never two tokens are usable at once, so never two processes are in the
// critical section: a process enters only holding a usable token. Between a
// sweep's start and its end every older token is ahead of it: held by a
// process the sweep has not reached, or in flight to one. Where the sweep
// reaches it, it dies (after the critical section in progress); where it
// arrives at a process the sweep has passed, it is discarded as stale; it
// cannot slip round behind the sweep, because the ring from the sweep's
// front back to its start is all unvisited and the start knows the sweep.
// So when the sweep ends, no older token survives, and a newer one, still
// sweeping, is not usable. This holds under any timing: a false loss
// suspicion (a timeout shorter than a round including everybody's critical
// sections) makes an extra generation, not a second usable token.
//
// It assumes what the kernel gives: a message in flight to a process that
// crashes is dropped, and the failure detector is the same at every process
// and suspects only crashed processes; with recoveries, also that messages
// arrive within hop ticks. A recovered process keeps in stable storage the
// newest identity it knew (so a maker never reuses an identity) and
// discards every token for hop ticks after it restarts (timer "rejoin"): a
// token sent to it while it was down arrives within hop ticks of being
// sent, and one sent after it can only come from a live predecessor that
// treats it as a member again.
//
// # Failures
//
// Tolerated: crashes of any processes, the holder, a process the token or a
// sweep is sent to, the election's participants (the election layer
// restarts; a lost sweep is a lost token) and the winner; recoveries. Lost
// messages cost a regeneration (a lost TOKEN is a lost token) or an
// election restart, not safety. Not tolerated: duplicated messages (a
// duplicated TOKEN is a second usable token) and partitions (each side
// regenerates its own).
package tokenring
