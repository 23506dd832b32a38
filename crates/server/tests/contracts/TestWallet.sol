// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

// A minimal ERC-1271 contract wallet for tests/siwe.rs: valid signatures are its owner's
// ECDSA signatures of the hash (for SIWE, the owner's `personal_sign` of the message). The
// factory deploys one with CREATE2, so a test can sign for it before it exists (EIP-6492).
//
// Built by build.mjs (solc 0.8.28, optimizer 200 runs) into test_wallet.hex and
// test_wallet_factory.hex (creation code).

contract TestWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

contract TestWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new TestWallet{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(TestWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
