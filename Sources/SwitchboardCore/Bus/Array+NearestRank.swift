extension Array where Element: Comparable {
    /// The value at fraction `p` (0.5 for the median, 0.99 for p99) of these
    /// values, which must be sorted ascending: the nearest rank at or above
    /// `count × p`; nil when there are none.
    public func nearestRank(_ p: Double) -> Element? {
        isEmpty ? nil : self[Swift.min(count - 1, Int(Double(count) * p))]
    }
}
