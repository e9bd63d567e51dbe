/// A place a message shares (`"location":{"lat","lon","accuracy"}`):
/// degrees on WGS 84, and how sure in metres when the sender knows.
public struct Location: Sendable, Equatable, Codable {
    /// Latitude in degrees, −90…90.
    public var lat: Double
    /// Longitude in degrees, −180…180.
    public var lon: Double
    /// The radius of uncertainty in metres, 0…100,000, when given.
    public var accuracy: Double?

    /// A location from trusted parts (the store's own).
    public init(lat: Double, lon: Double, accuracy: Double? = nil) {
        self.lat = lat
        self.lon = lon
        self.accuracy = accuracy
    }

    /// A client's location: each part a finite number in range, or 422
    /// `invalid_location` naming the part.
    public init(validating members: [String: JSONValue]) throws(SwitchboardError) {
        func number(_ name: String, in range: ClosedRange<Double>) throws(SwitchboardError) -> Double {
            guard let value = members[name]?.doubleValue, value.isFinite, range.contains(value) else {
                throw .invalidLocation("'\(name)' must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)).")
            }
            return value
        }
        lat = try number("lat", in: -90...90)
        lon = try number("lon", in: -180...180)
        if let given = members["accuracy"], given != .null {
            accuracy = try number("accuracy", in: 0...100_000)
        }
        for key in members.keys where !["lat", "lon", "accuracy"].contains(key) {
            throw .invalidLocation("A location has 'lat', 'lon' and 'accuracy' only, not '\(key)'.")
        }
    }

    /// Its `geo:` URI (RFC 5870), as raw TCP and the chat page show it.
    public var geoURI: String {
        var uri = "geo:\(Self.degrees(lat)),\(Self.degrees(lon))"
        if let accuracy { uri += ";u=\(Self.degrees(accuracy))" }
        return uri
    }

    /// A number as JSON and `geo:` write it: no exponent, no trailing `.0`.
    static func degrees(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
