import ArgumentParser
import Switchboard

/// `switchboard serve`'s options for uploads: where their files go and how large they may be.
struct MediaOptions: ParsableArguments {
    @Option(name: .customLong("media-dir"), help: "Folder for uploads' files (default: media/ beside the SQLite file).")
    var directory: String?

    @Option(name: .customLong("max-upload-mib"), help: "Largest upload in MiB; larger ones get 413 too_large.")
    var maxUploadMiB: Int = 25

    @Option(name: .customLong("upload-quota-mib"), help: "MiB one user's uploads may take together; past it 413 quota_exceeded.")
    var quotaMiB: Int = 1024

    func validate() throws {
        try OptionRange.check("--max-upload-mib", maxUploadMiB, 1...4096)
        try OptionRange.check("--upload-quota-mib", quotaMiB, 1...1_048_576)
    }

    func apply(to configuration: inout ChatServerConfiguration) {
        configuration.mediaDirectory = directory
        configuration.media.maxUploadBytes = Int64(maxUploadMiB) * 1_048_576
        configuration.media.quotaBytes = Int64(quotaMiB) * 1_048_576
    }
}
