import Foundation
import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaServer

/// The model is reached only through the lease a hold of the state's lock lends its body.
@Suite struct ModelLeaseTests {
    static func state() -> SharedState {
        SharedState(model: SeedData.model(now: 1_700_000_000), historyCapacity: 10, historyID: "0")
    }

    static func order(_ lease: ModelLease) {
        var viewer = Viewer()
        var rng = SplitMix64(seed: 1)
        let outcome = lease.changing.apply(.order(path: "pesto"), ifRev: nil, viewer: &viewer, now: 0, rng: &rng)
        #expect(outcome.reply.error == nil)
    }

    @Test func aWriteHoldChangesTheModelInPlaceAndReadersSeeIt() {
        let state = Self.state()
        let before = state.reading { $0.model.revision }
        state.writing { Self.order($0) }
        #expect(state.reading { $0.model.revision } == before + 1)
    }

    @Test func whileATurnIsUncommittedLoopReadersAreLentTheCommittedModelAndTheEngineTheNewOne() {
        let state = Self.state()
        let before = state.reading { $0.model.revision }
        state.writing { lease in
            state.keepCommitted()
            Self.order(lease)
            state.uncommitted = true
        }
        #expect(state.reading { $0.model.revision } == before, "a loop reads the model as committed")
        #expect(state.reading(onEngine: true) { $0.model.revision } == before + 1, "the engine reads its turn")
        state.writing { _ in
            state.dropCommittedNow()
            state.uncommitted = false
        }
        #expect(state.reading { $0.model.revision } == before + 1)
    }

    #if DEBUG
        @Test func aLeaseKeptPastItsHoldStopsADebugBuild() async {
            await #expect(processExitsWith: .failure) {
                let state = ModelLeaseTests.state()
                let kept = state.reading { $0 }
                _ = kept.model.revision
            }
        }

        @Test func aReadHoldCannotChangeTheModel() async {
            await #expect(processExitsWith: .failure) {
                let state = ModelLeaseTests.state()
                state.reading { ModelLeaseTests.order($0) }
            }
        }
    #endif
}
