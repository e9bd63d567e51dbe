extension Array where Element == Double {
    /// The value at fraction `p` (0.5 for the median) of these values,
    /// which must be sorted: the nearest rank at or above, 0 when empty.
    func percentile(_ p: Double) -> Double {
        isEmpty ? 0 : self[Swift.min(count - 1, Int(Double(count) * p))]
    }
}
