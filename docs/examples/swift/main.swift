// An example program for the MotionOrientation library: prints the device and interface
// orientation on every change, the way an iOS app would listen to the iOS library.
//
// Build it as an executable target that depends on the library product
// "MotionOrientation", then run it on a device where motion-orientationd runs:
//
//     $ rotation-logger
//     device portrait, interface portrait
//     device landscape-left, interface landscape-right
//
// The library talks to the daemon on a thread of its own and posts its notifications on
// `notificationQueue`, the main queue by default, so the main thread runs the main queue.
import Dispatch
import Foundation
import MotionOrientation

let motion = MotionOrientation.sharedInstance()

/// Prints one line for a notification's userInfo (raw values, Apple's numbering).
func report(_ note: Notification) {
    let device = (note.userInfo?[kMotionOrientationDeviceOrientationKey] as? Int).flatMap(DeviceOrientation.init)
    let interface = (note.userInfo?[kMotionOrientationInterfaceOrientationKey] as? Int).flatMap(
        InterfaceOrientation.init)
    print("device \(device ?? .unknown), interface \(interface ?? .unknown)")
}

// Device changes (including face up and face down) and interface changes arrive as two
// notifications; a rotating UI would listen to the interface one only.
let observers = [MotionOrientationChangedNotification, MotionOrientationInterfaceOrientationChangedNotification]
    .map { name in
        NotificationCenter.default.addObserver(forName: name, object: motion, queue: nil) { note in
            report(note)
        }
    }

// Claim the sensor; the first notifications carry the current orientation. Calling
// start() again would change nothing; stop() releases the claim.
motion.start()

// On Ctrl-C: release the claim and leave (leaving the bus would end the claim anyway).
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
interrupt.setEventHandler {
    MainActor.assumeIsolated {
        motion.stop()
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
    exit(0)
}
interrupt.resume()

RunLoop.main.run()
