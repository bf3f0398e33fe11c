import TimeTrackFuzz

/// The fuzzer's seedable generator, for generated test cases that are the same on every run.
public typealias SplitMix64 = SplitMix

extension SplitMix {
    /// A number in the range.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
}
