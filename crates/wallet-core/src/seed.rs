//! BIP-39: entropy → mnemonic → 64-byte seed.
//!
//! The checksum comes from `sha2` and the PBKDF2-HMAC-SHA512 stretch from `pbkdf2` (the same
//! SHA-512 BIP-32 already links, which keeps the wasm small). This file only packs 11-bit word
//! indices (the `bip39` crate would do it too, but brings its own hashes and costs more wasm);
//! the tests check it against `bip39` for random entropy.
//!
//! The English word list is embedded front-coded: each word is one digit, how many leading
//! letters it shares with the word before it, then the rest of the word (8.3 KB instead of
//! 13.1 KB; ~1.7 KB less gzip in the wasm). A test checks it against the `bip39` crate's list.

use sha2::{Digest, Sha256, Sha512};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::{Result, WalletError};

/// PBKDF2 iterations fixed by BIP-39.
const PBKDF2_ROUNDS: u32 = 2048;

/// A 64-byte BIP-39 seed, zeroized on drop.
pub struct Seed(Zeroizing<[u8; 64]>);

impl Seed {
    /// The raw seed bytes.
    pub fn as_bytes(&self) -> &[u8; 64] {
        &self.0
    }
}

/// The BIP-39 English word list, front-coded (see the module documentation).
const ENGLISH: &[u8] = include_bytes!("bip39_english_front_coded.txt");

/// Longest word of the English list.
const MAX_WORD_LEN: usize = 8;

/// Words in the English list.
const ENGLISH_WORDS: u32 = 2048;

/// Appends word `index` (0..2048) of the English list to `phrase`; `None` past the end.
///
/// The index comes from the entropy, so the lookup must not depend on it: every word of the
/// list is rebuilt and the wanted one is copied out with constant-time selects (`subtle`), so
/// time and memory accesses are the same for every index. Only the chosen word's length shows
/// (as it does in the phrase anyway).
fn push_english_word(index: usize, phrase: &mut String) -> Option<()> {
    let target = u32::try_from(index).ok().filter(|i| *i < ENGLISH_WORDS)?;
    // The word being rebuilt (public: the list itself) and the selected copy (secret).
    let mut current = Zeroizing::new([0u8; MAX_WORD_LEN]);
    let mut word = Zeroizing::new([0u8; MAX_WORD_LEN]);
    let mut word_len = 0u8;
    let (mut number, mut len) = (0u32, 0usize);
    let mut select = |number: u32, current: &[u8; MAX_WORD_LEN], len: usize| {
        let chosen = number.ct_eq(&target);
        for (out, byte) in word.iter_mut().zip(current) {
            out.conditional_assign(byte, chosen);
        }
        // `len` ≤ 8: the list's words are at most MAX_WORD_LEN letters.
        word_len.conditional_assign(&(len as u8), chosen);
    };
    for &byte in ENGLISH {
        if byte.is_ascii_digit() {
            if number > 0 {
                select(number.saturating_sub(1), &current, len);
            }
            number += 1;
            len = usize::from(byte - b'0');
        } else {
            *current.get_mut(len)? = byte;
            len += 1;
        }
    }
    select(number.saturating_sub(1), &current, len);
    phrase.push_str(core::str::from_utf8(word.get(..usize::from(word_len))?).ok()?);
    Some(())
}

/// The English BIP-39 mnemonic sentence for `entropy` (16–32 bytes, multiple of 4).
pub fn mnemonic_phrase(entropy: &[u8]) -> Result<Zeroizing<String>> {
    if !(16..=32).contains(&entropy.len()) || !entropy.len().is_multiple_of(4) {
        return Err(WalletError::InvalidEntropy(entropy.len()));
    }
    // BIP-39: entropy || first ENT/32 bits of SHA-256(entropy), read as 11-bit word indices.
    let checksum = Sha256::digest(entropy);
    let mut bits = Zeroizing::new(entropy.to_vec());
    bits.push(checksum[0]);
    let word_count = (entropy.len() * 8 + entropy.len() / 4) / 11;
    let mut phrase = Zeroizing::new(String::with_capacity(word_count * 9));
    for w in 0..word_count {
        let mut index = 0usize;
        for b in w * 11..w * 11 + 11 {
            index = (index << 1) | usize::from((bits[b / 8] >> (7 - b % 8)) & 1);
        }
        if w > 0 {
            phrase.push(' ');
        }
        push_english_word(index, &mut phrase).ok_or(WalletError::InvalidEntropy(entropy.len()))?;
    }
    Ok(phrase)
}

/// BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt `"mnemonic" || passphrase`) of the
/// mnemonic for `entropy`.
///
/// Wallets use no passphrase (`None`); the parameter exists for the published test vectors.
/// The passphrase must already be NFKD-normalised (ASCII always is).
pub fn mnemonic_to_seed(entropy: &[u8], passphrase: Option<&str>) -> Result<Seed> {
    let phrase = mnemonic_phrase(entropy)?;
    let salt = Zeroizing::new(["mnemonic", passphrase.unwrap_or("")].concat());
    let mut seed = Zeroizing::new([0u8; 64]);
    pbkdf2::pbkdf2_hmac::<Sha512>(
        phrase.as_bytes(),
        salt.as_bytes(),
        PBKDF2_ROUNDS,
        seed.as_mut(),
    );
    Ok(Seed(seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode_hex, encode_hex};

    /// The Trezor reference vectors (python-mnemonic `vectors.json`, English), passphrase "TREZOR":
    /// (entropy, mnemonic, seed).
    const TREZOR: [(&str, &str, &str); 24] = [
        (
            "00000000000000000000000000000000",
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
            "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04",
        ),
        (
            "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
            "legal winner thank year wave sausage worth useful legal winner thank yellow",
            "2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607",
        ),
        (
            "80808080808080808080808080808080",
            "letter advice cage absurd amount doctor acoustic avoid letter advice cage above",
            "d71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8",
        ),
        (
            "ffffffffffffffffffffffffffffffff",
            "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
            "ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069",
        ),
        (
            "000000000000000000000000000000000000000000000000",
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon agent",
            "035895f2f481b1b0f01fcf8c289c794660b289981a78f8106447707fdd9666ca06da5a9a565181599b79f53b844d8a71dd9f439c52a3d7b3e8a79c906ac845fa",
        ),
        (
            "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
            "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal will",
            "f2b94508732bcbacbcc020faefecfc89feafa6649a5491b8c952cede496c214a0c7b3c392d168748f2d4a612bada0753b52a1c7ac53c1e93abd5c6320b9e95dd",
        ),
        (
            "808080808080808080808080808080808080808080808080",
            "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter always",
            "107d7c02a5aa6f38c58083ff74f04c607c2d2c0ecc55501dadd72d025b751bc27fe913ffb796f841c49b1d33b610cf0e91d3aa239027f5e99fe4ce9e5088cd65",
        ),
        (
            "ffffffffffffffffffffffffffffffffffffffffffffffff",
            "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo when",
            "0cd6e5d827bb62eb8fc1e262254223817fd068a74b5b449cc2f667c3f1f985a76379b43348d952e2265b4cd129090758b3e3c2c49103b5051aac2eaeb890a528",
        ),
        (
            "0000000000000000000000000000000000000000000000000000000000000000",
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art",
            "bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8",
        ),
        (
            "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
            "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title",
            "bc09fca1804f7e69da93c2f2028eb238c227f2e9dda30cd63699232578480a4021b146ad717fbb7e451ce9eb835f43620bf5c514db0f8add49f5d121449d3e87",
        ),
        (
            "8080808080808080808080808080808080808080808080808080808080808080",
            "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless",
            "c0c519bd0e91a2ed54357d9d1ebef6f5af218a153624cf4f2da911a0ed8f7a09e2ef61af0aca007096df430022f7a2b6fb91661a9589097069720d015e4e982f",
        ),
        (
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo vote",
            "dd48c104698c30cfe2b6142103248622fb7bb0ff692eebb00089b32d22484e1613912f0a5b694407be899ffd31ed3992c456cdf60f5d4564b8ba3f05a69890ad",
        ),
        (
            "9e885d952ad362caeb4efe34a8e91bd2",
            "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
            "274ddc525802f7c828d8ef7ddbcdc5304e87ac3535913611fbbfa986d0c9e5476c91689f9c8a54fd55bd38606aa6a8595ad213d4c9c9f9aca3fb217069a41028",
        ),
        (
            "6610b25967cdcca9d59875f5cb50b0ea75433311869e930b",
            "gravity machine north sort system female filter attitude volume fold club stay feature office ecology stable narrow fog",
            "628c3827a8823298ee685db84f55caa34b5cc195a778e52d45f59bcf75aba68e4d7590e101dc414bc1bbd5737666fbbef35d1f1903953b66624f910feef245ac",
        ),
        (
            "68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c",
            "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy gospel tennis maple dilemma loan word shrug inflict delay length",
            "64c87cde7e12ecf6704ab95bb1408bef047c22db4cc7491c4271d170a1b213d20b385bc1588d9c7b38f1b39d415665b8a9030c9ec653d75e65f847d8fc1fc440",
        ),
        (
            "c0ba5a8e914111210f2bd131f3d5e08d",
            "scheme spot photo card baby mountain device kick cradle pact join borrow",
            "ea725895aaae8d4c1cf682c1bfd2d358d52ed9f0f0591131b559e2724bb234fca05aa9c02c57407e04ee9dc3b454aa63fbff483a8b11de949624b9f1831a9612",
        ),
        (
            "6d9be1ee6ebd27a258115aad99b7317b9c8d28b6d76431c3",
            "horn tenant knee talent sponsor spell gate clip pulse soap slush warm silver nephew swap uncle crack brave",
            "fd579828af3da1d32544ce4db5c73d53fc8acc4ddb1e3b251a31179cdb71e853c56d2fcb11aed39898ce6c34b10b5382772db8796e52837b54468aeb312cfc3d",
        ),
        (
            "9f6a2878b2520799a44ef18bc7df394e7061a224d2c33cd015b157d746869863",
            "panda eyebrow bullet gorilla call smoke muffin taste mesh discover soft ostrich alcohol speed nation flash devote level hobby quick inner drive ghost inside",
            "72be8e052fc4919d2adf28d5306b5474b0069df35b02303de8c1729c9538dbb6fc2d731d5f832193cd9fb6aeecbc469594a70e3dd50811b5067f3b88b28c3e8d",
        ),
        (
            "23db8160a31d3e0dca3688ed941adbf3",
            "cat swing flag economy stadium alone churn speed unique patch report train",
            "deb5f45449e615feff5640f2e49f933ff51895de3b4381832b3139941c57b59205a42480c52175b6efcffaa58a2503887c1e8b363a707256bdd2b587b46541f5",
        ),
        (
            "8197a4a47f0425faeaa69deebc05ca29c0a5b5cc76ceacc0",
            "light rule cinnamon wrap drastic word pride squirrel upgrade then income fatal apart sustain crack supply proud access",
            "4cbdff1ca2db800fd61cae72a57475fdc6bab03e441fd63f96dabd1f183ef5b782925f00105f318309a7e9c3ea6967c7801e46c8a58082674c860a37b93eda02",
        ),
        (
            "066dca1a2bb7e8a1db2832148ce9933eea0f3ac9548d793112d9a95c9407efad",
            "all hour make first leader extend hole alien behind guard gospel lava path output census museum junior mass reopen famous sing advance salt reform",
            "26e975ec644423f4a4c4f4215ef09b4bd7ef924e85d1d17c4cf3f136c2863cf6df0a475045652c57eb5fb41513ca2a2d67722b77e954b4b3fc11f7590449191d",
        ),
        (
            "f30f8c1da665478f49b001d94c5fc452",
            "vessel ladder alter error federal sibling chat ability sun glass valve picture",
            "2aaa9242daafcee6aa9d7269f17d4efe271e1b9a529178d7dc139cd18747090bf9d60295d0ce74309a78852a9caadf0af48aae1c6253839624076224374bc63f",
        ),
        (
            "c10ec20dc3cd9f652c7fac2f1230f7a3c828389a14392f05",
            "scissors invite lock maple supreme raw rapid void congress muscle digital elegant little brisk hair mango congress clump",
            "7b4a10be9d98e6cba265566db7f136718e1398c71cb581e1b2f464cac1ceedf4f3e274dc270003c670ad8d02c4558b2f8e39edea2775c9e232c7cb798b069e88",
        ),
        (
            "f585c11aec520db57dd353c69554b21a89b20fb0650966fa0a9d6f74fd989d8f",
            "void come effort suffer camp survey warrior heavy shoot primary clutch crush open amazing screen patrol group space point ten exist slush involve unfold",
            "01f5bced59dec48e362f2c45b5de68b9fd6c92c6634f44d6d40aab69056506f0e35524a518034ddc1192e1dacd32c1ed3eaa3c3b131c88ed8e7e54c49a5d0998",
        ),
    ];

    fn english_word(index: usize) -> Option<String> {
        let mut word = String::new();
        push_english_word(index, &mut word).map(|()| word)
    }

    #[test]
    fn embedded_word_list_is_bip39_english() {
        let reference = bip39::Language::English.word_list();
        for (i, word) in reference.iter().enumerate() {
            assert_eq!(english_word(i).as_deref(), Some(*word));
        }
        assert_eq!(english_word(2048), None);
        assert_eq!(english_word(usize::MAX), None);
    }

    /// The constant-time lookup agrees with a plain index into the reference list for the
    /// first, last and every other word (all 2048 round-trip through a phrase).
    #[test]
    fn every_word_round_trips_through_a_phrase() {
        let reference = bip39::Language::English.word_list();
        let mut phrase = String::new();
        for i in 0..2048 {
            push_english_word(i, &mut phrase).unwrap();
            phrase.push(' ');
        }
        let words: Vec<&str> = phrase.split_whitespace().collect();
        assert_eq!(words.len(), 2048);
        for (i, word) in words.iter().enumerate() {
            assert_eq!(reference.iter().position(|w| w == word), Some(i));
        }
    }

    proptest::proptest! {
        /// The 11-bit packing and checksum agree with the `bip39` crate for every length.
        #[test]
        fn phrase_matches_bip39_crate(words in proptest::sample::select(vec![12usize, 15, 18, 21, 24]), bytes in proptest::array::uniform32(0u8..)) {
            let entropy = &bytes[..words * 4 / 3];
            let reference = bip39::Mnemonic::from_entropy(entropy).unwrap();
            let expected = reference.words().collect::<Vec<_>>().join(" ");
            let phrase = mnemonic_phrase(entropy).unwrap();
            proptest::prop_assert_eq!(phrase.as_str(), expected);
        }
    }

    #[test]
    fn trezor_vectors() {
        for (entropy, phrase, seed) in TREZOR {
            let entropy = decode_hex(&format!("0x{entropy}")).unwrap();
            assert_eq!(mnemonic_phrase(&entropy).unwrap().as_str(), phrase);
            let derived = mnemonic_to_seed(&entropy, Some("TREZOR")).unwrap();
            assert_eq!(encode_hex(derived.as_bytes()), format!("0x{seed}"));
        }
    }

    #[test]
    fn no_passphrase_differs_and_bad_entropy_rejected() {
        let entropy = [0u8; 16];
        let with = mnemonic_to_seed(&entropy, Some("TREZOR")).unwrap();
        let without = mnemonic_to_seed(&entropy, None).unwrap();
        assert_ne!(with.as_bytes(), without.as_bytes());
        assert!(mnemonic_to_seed(&[0u8; 15], None).is_err());
        assert!(mnemonic_to_seed(&[0u8; 36], None).is_err());
        assert!(mnemonic_to_seed(&[0u8; 18], None).is_err());
    }
}
