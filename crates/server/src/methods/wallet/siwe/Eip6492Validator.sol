// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

// The server's EIP-6492 check, never deployed: `eth_call` runs this contract's creation code
// followed by `abi.encode(signer, hash, signature)` with no `to` (EIP-6492 "off-chain
// validation"), and the call's result is the one byte the constructor returns: 0x01 when the
// signature is valid, 0x00 when not.
//
// Order (EIP-6492): a signature with the 6492 suffix names a factory call that deploys the
// wallet; it is made (inside the call only) when the signer has no code yet, the signer must then
// have code, and the wrapped signature is checked. Then EIP-1271 when the signer has code, else
// (an unwrapped signature only) ecrecover.
//
// Built by crates/server/tests/contracts/build.mjs (solc 0.8.28, optimizer 200 runs) into
// eip6492_validator.hex next to this file.

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

contract Eip6492Validator {
    bytes32 private constant SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;

    constructor(address signer, bytes32 hash, bytes memory signature) {
        bool valid = check(signer, hash, signature);
        assembly {
            mstore(0, valid)
            return(31, 1)
        }
    }

    function check(address signer, bytes32 hash, bytes memory signature) private returns (bool) {
        uint256 length = signature.length;
        bytes32 tail;
        if (length >= 32) {
            assembly {
                tail := mload(add(add(signature, 32), sub(length, 32)))
            }
        }
        if (tail == SUFFIX) {
            // Drop the suffix in place, then unwrap (factory, factory calldata, signature).
            assembly {
                mstore(signature, sub(length, 32))
            }
            (address factory, bytes memory factoryCall, bytes memory inner) =
                abi.decode(signature, (address, bytes, bytes));
            if (signer.code.length == 0) {
                (bool deployed,) = factory.call(factoryCall);
                if (!deployed) return false;
            }
            // A wrapped signature is a contract wallet's (EIP-6492 asks the wallet, never
            // ecrecover): no code after the factory call means no wallet, so an ordinary
            // wallet's key wrapped with any factory call is refused.
            if (signer.code.length == 0) return false;
            signature = inner;
        }
        if (signer.code.length > 0) {
            try IERC1271(signer).isValidSignature(hash, signature) returns (bytes4 magic) {
                return magic == ERC1271_MAGIC;
            } catch {
                return false;
            }
        }
        if (signature.length != 65) return false;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        address recovered = ecrecover(hash, v, r, s);
        return recovered != address(0) && recovered == signer;
    }
}
