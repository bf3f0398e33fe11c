import Foundation
import TimeTrackConsole

exit(Console.main(arguments: Array(CommandLine.arguments.dropFirst())))
