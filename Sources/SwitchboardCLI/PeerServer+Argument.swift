import ArgumentParser
import SwitchboardLoad

extension PeerServer: ExpressibleByArgument {}
