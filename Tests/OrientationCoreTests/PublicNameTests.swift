import OrientationCore
import Testing

@Suite("Public names, one per case")
struct PublicNameTests {
    /// Each case has its own name, and the name leads back to the case.
    func check<T: PublicName>(_: T.Type) {
        #expect(T.names.count == T.allCases.count)
        #expect(Set(T.names).count == T.names.count)
        for state in T.allCases { #expect(T(name: state.name) == state) }
        #expect(T(name: "") == nil)
    }

    @Test func orientationsAndHingeStates() {
        check(DeviceOrientation.self)
        check(InterfaceOrientation.self)
        check(HingeState.self)
        #expect(HingeState.allCases.map(\.name) == ["unknown", "closed", "concave", "flat", "convex", "full"])
        #expect(HingeState(name: "Full") == nil)
    }
}
