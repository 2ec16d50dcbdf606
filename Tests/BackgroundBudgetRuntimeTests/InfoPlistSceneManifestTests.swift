import Foundation
import Testing
import BackgroundBudgetCore

/// `UIApplicationSceneManifest` in an Info.plist: present makes a scene-based app, its
/// `UIApplicationSupportsMultipleScenes` says whether it opens more than one window; wrong types name
/// the key, in XML and binary alike.
@Suite struct InfoPlistSceneManifestTests {
    static let id = "com.example.notes"

    @Test func theSceneManifestAndItsMultipleScenesFlagAreRead() throws {
        for format in InfoPlistTests.formats {
            let plain = try AppManifest(plistData: InfoPlistTests.plist(["CFBundleIdentifier": Self.id], format))
            #expect(plain.sceneManifest == nil && !plain.usesScenes)
            let configurations: [String: Any] = ["UIWindowSceneSessionRoleApplication": [["UISceneDelegateClassName": "SceneDelegate"]]]
            let single = try AppManifest(plistData: InfoPlistTests.plist(
                ["CFBundleIdentifier": Self.id, "UIApplicationSceneManifest": ["UISceneConfigurations": configurations]], format))
            #expect(single.sceneManifest == SceneManifest(supportsMultipleScenes: false))
            let multiple = try AppManifest(plistData: InfoPlistTests.plist(
                ["CFBundleIdentifier": Self.id, "UIApplicationSceneManifest": ["UIApplicationSupportsMultipleScenes": true]], format))
            #expect(multiple.sceneManifest == SceneManifest(supportsMultipleScenes: true))
        }
    }

    @Test func wrongTypesNameTheKey() throws {
        #expect(try InfoPlistTests.failure(["CFBundleIdentifier": Self.id, "UIApplicationSceneManifest": true])
            == "UIApplicationSceneManifest: expected a dictionary, found a boolean")
        #expect(try InfoPlistTests.failure(["CFBundleIdentifier": Self.id,
                                            "UIApplicationSceneManifest": ["UIApplicationSupportsMultipleScenes": "YES"]])
            == "UIApplicationSceneManifest.UIApplicationSupportsMultipleScenes: expected a boolean, found a string")
    }
}
