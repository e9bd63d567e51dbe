import ArgumentParser
import SwitchboardTesting

extension PeerServer: ExpressibleByArgument {}
