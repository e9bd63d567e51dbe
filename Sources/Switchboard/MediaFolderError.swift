/// The folder for uploads' files could not be made or opened.
public struct MediaFolderError: Error, CustomStringConvertible {
    public var path: String
    public var underlying: any Error

    /// Which folder, and which option names it: the system's reason alone
    /// (`mkdir /srv/x: Permission denied`) did not say what it was for.
    public var description: String {
        "cannot use the folder for uploads' files \(path) (--media-dir): \(underlying)"
    }
}
