use proptest::prelude::*;

use super::*;
use crate::chains::ethereum::Address;

fn aad(kind: ShareKind) -> ShareAad<'static> {
    ShareAad {
        kind,
        address: Address([0x11; 20]),
        user_id: "did:privy:user",
    }
}

#[test]
fn split_layout_and_errors() {
    let entropy = Entropy::generate().unwrap();
    let set = split_entropy(&entropy).unwrap();
    assert_eq!(set.device.kind(), ShareKind::Device);
    assert_eq!(set.auth.kind(), ShareKind::Auth);
    assert_eq!(set.recovery.kind(), ShareKind::Recovery);
    assert_eq!(set.auth.as_bytes().len(), 17);
    assert_eq!(
        combine_shares(std::slice::from_ref(&set.device)).map(|_| ()),
        Err(WalletError::NotEnoughShares)
    );
    assert!(matches!(
        combine_shares(&[set.auth.clone(), set.auth.clone()]),
        Err(WalletError::DuplicateShare(_))
    ));
    // Re-split shares do not mix with the previous split.
    let again = split_entropy(&entropy).unwrap();
    assert_eq!(
        combine_shares(&[again.device.clone(), again.recovery]).unwrap(),
        entropy
    );
    assert!(Share::from_bytes(&[0; 17]).is_err());
    assert!(Share::from_bytes(&[1; 16]).is_err());
    assert_eq!(format!("{:?}", set.device), "Share(device, ..)");
    assert_eq!(ShareKind::parse("auth").unwrap(), ShareKind::Auth);
    assert!(ShareKind::parse("other").is_err());
}

#[test]
fn envelope_rejects_wrong_key_and_short_key() {
    let set = split_entropy(&Entropy::generate().unwrap()).unwrap();
    let key = [7u8; 32];
    let envelope = encrypt_share(&key, &aad(ShareKind::Auth), &set.auth).unwrap();
    assert_eq!(envelope.len(), 1 + 32 + 12 + 17 + 16);
    assert_eq!(
        decrypt_share(&[8u8; 32], &aad(ShareKind::Auth), &envelope),
        Err(WalletError::Decryption)
    );
    assert!(matches!(
        encrypt_share(&[7u8; 16], &aad(ShareKind::Auth), &set.auth),
        Err(WalletError::InvalidKey(_))
    ));
    // The share must match the kind it is bound to.
    assert!(encrypt_share(&key, &aad(ShareKind::Device), &set.auth).is_err());
    assert_eq!(
        decrypt_share(&key, &aad(ShareKind::Auth), &envelope[..20]),
        Err(WalletError::Decryption)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any two of the three shares rebuild the entropy; one alone does not.
    #[test]
    fn any_two_shares_rebuild(bytes in prop::array::uniform16(any::<u8>()), pick in 0usize..3, order in any::<bool>()) {
        let entropy = Entropy::from_bytes(&bytes).unwrap();
        let set = split_entropy(&entropy).unwrap();
        let all = [set.device, set.auth, set.recovery];
        let mut pair = vec![all[pick].clone(), all[(pick + 1) % 3].clone()];
        if order {
            pair.reverse();
        }
        prop_assert_eq!(combine_shares(&pair).unwrap(), entropy);
        prop_assert!(combine_shares(&pair[..1]).is_err());
    }

    /// Round trip works; any flipped bit or any other associated data fails.
    #[test]
    fn envelope_tamper_and_aad(key in prop::array::uniform32(any::<u8>()), flip in 0usize..78, bit in 0u8..8, user in "[a-z]{1,12}") {
        let set = split_entropy(&Entropy::generate().unwrap()).unwrap();
        let bound = ShareAad { kind: ShareKind::Recovery, address: Address([0x22; 20]), user_id: &user };
        let envelope = encrypt_share(&key, &bound, &set.recovery).unwrap();
        prop_assert_eq!(decrypt_share(&key, &bound, &envelope).unwrap(), set.recovery.clone());

        let mut tampered = envelope.clone();
        tampered[flip] ^= 1 << bit;
        prop_assert!(decrypt_share(&key, &bound, &tampered).is_err());

        let other_user = format!("{user}x");
        let wrong_user = ShareAad { user_id: &other_user, ..bound };
        prop_assert_eq!(decrypt_share(&key, &wrong_user, &envelope), Err(WalletError::Decryption));
        let wrong_address = ShareAad { address: Address([0x23; 20]), ..bound };
        prop_assert_eq!(decrypt_share(&key, &wrong_address, &envelope), Err(WalletError::Decryption));
        let wrong_kind = ShareAad { kind: ShareKind::Auth, ..bound };
        prop_assert_eq!(decrypt_share(&key, &wrong_kind, &envelope), Err(WalletError::Decryption));
    }
}
